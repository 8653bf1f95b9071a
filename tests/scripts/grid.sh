#!/bin/sh
# grid.sh: gpusvm-grid against LIBSVM's svm-grid on heart_scale (a 4 x 3 grid, 5 folds, and the
# default 11 x 10 grid): svm-grid's stdout lines and .out lines in its order and format, its last
# line, the best rate within 1.5 points of svm-grid's and svm-grid's own rate at gpusvm's best
# point within 1.5 of its best (the folds differ: LIBSVM draws them with rand()), and the PNG
# (CRCs, zlib stream, at least 32 pixels a grid point, text in the title, on both axes and in the
# legend); every gamma in one batch against one gamma a run, and against a point a job on three
# lanes of one OpenCL device. Exits non-zero on a failure.
set -u
B=build
W=$B/grid
mkdir -p "$W"
SVMGRID=$(command -v svm-grid) || { echo "grid: svm-grid not found (Debian: libsvm-tools)"; exit 1; }
fail=0
check() { # check WHAT OPTIONS...: runs both, compares
    what=$1
    shift
    $B/gpusvm-grid "$@" -out "$W/our.out" -png "$W/our.png" data/heart_scale > "$W/our.txt" 2> "$W/our.err" ||
        { echo "FAIL $what: gpusvm-grid failed: $(tail -n 1 "$W/our.err")"; fail=1; return; }
    python3 "$SVMGRID" -svmtrain "$(command -v svm-train)" -gnuplot null "$@" -out "$W/ref.out" data/heart_scale \
        > "$W/ref.txt" 2> "$W/ref.err" || { echo "FAIL $what: svm-grid failed"; fail=1; return; }
    python3 - "$W" "$what" <<'PY' || fail=1
import re, sys
w, what = sys.argv[1], sys.argv[2]
ours, ref = open(w + "/our.txt").read().splitlines(), open(w + "/ref.txt").read().splitlines()
bad = []
pat = re.compile(r"^\[local\] (\S+) (\S+) (\S+) \(best c=\S+, g=\S+, rate=\S+\)$")
if len(ours) != len(ref): bad.append("%d lines, svm-grid %d" % (len(ours), len(ref)))
for a, b in zip(ours[:-1], ref[:-1]):
    ma, mb = pat.match(a), pat.match(b)
    if not ma or not mb or ma.group(1, 2) != mb.group(1, 2): bad.append("line %r against %r" % (a, b)); break
oo = [l.split() for l in open(w + "/our.out").read().splitlines()]
ro = [l.split() for l in open(w + "/ref.out").read().splitlines()]
if [l[:2] for l in oo] != [l[:2] for l in ro]: bad.append(".out lines' points or order differ from svm-grid's")
best = ours[-1].split(); rbest = ref[-1].split()
if len(best) != 3: bad.append("last line %r" % ours[-1])
else:
    if abs(float(best[2]) - float(rbest[2])) > 1.5: bad.append("best rate %s, svm-grid %s" % (best[2], rbest[2]))
    import math
    at = [l for l in ro if float(l[0][6:]) == math.log2(float(best[0]))
          and float(l[1][6:]) == math.log2(float(best[1]))]
    if not at: bad.append("best point %s %s is not on svm-grid's grid" % (best[0], best[1]))
    elif abs(float(at[0][2][5:]) - float(rbest[2])) > 1.5:
        bad.append("svm-grid's rate at our best point %s against its best %s" % (at[0][2], rbest[2]))
nc = len(set(l[0] for l in ro)); ng = len(set(l[1] for l in ro))
sys.path.insert(0, "tests/scripts")
import png_check
import struct, zlib
raw = open(w + "/our.png", "rb").read()
dims = struct.unpack(">II", raw[16:24])
why = png_check.check(w + "/our.png", dims[0], dims[1])
# at least 32 pixels a grid point and a 480 x 384 map, with the margins (axes, title, legend)
if not why and (dims[0] < 64 + max(480, 32 * nc) + 150 or dims[1] < 56 + max(384, 32 * ng) + 56):
    why = "%dx%d pixels for a %d x %d grid" % (dims[0], dims[1], nc, ng)
if not why: # text in the title band, the tick labels' band and the legend's: black pixels there
    i, pix = 8, b""
    while i < len(raw):
        n, = struct.unpack(">I", raw[i:i + 4])
        if raw[i + 4:i + 8] == b"IDAT": pix += raw[i + 8:i + 8 + n]
        i += 12 + n
    pix = zlib.decompress(pix)
    row = lambda y: pix[y * (1 + 3 * dims[0]) + 1:(y + 1) * (1 + 3 * dims[0])]
    black = lambda y0, y1, x0, x1: any(row(y)[3 * x:3 * x + 3] == b"\0\0\0" for y in range(y0, y1) for x in range(x0, x1))
    if not black(0, 30, 0, dims[0]): why = "no title"
    elif not black(dims[1] - 50, dims[1], 64, dims[0] - 150): why = "no x axis labels"
    elif not black(56, dims[1] - 56, 0, 60): why = "no y axis labels"
    elif not black(56, dims[1] - 56, dims[0] - 100, dims[0]): why = "no legend labels"
if why: bad.append("PNG: " + why)
print(("FAIL %s: " % what + "; ".join(bad)) if bad else "ok   gpusvm-grid %s: svm-grid's lines, best %s (svm-grid %s), PNG %dx%d" % (what, ours[-1], ref[-1], dims[0], dims[1]))
sys.exit(1 if bad else 0)
PY
}
check "4 x 3 grid" -log2c -1,5,2 -log2g -5,-1,2 -v 5
check "the default grid"
# -png null writes no picture (svm-grid's "null"), and -gnuplot null leaves the picture alone
rm -rf "$W/null_run" && mkdir -p "$W/null_run"
(cd "$W/null_run" && ../../gpusvm-grid -log2c -1,1,2 -log2g -3,-1,2 -v 2 -png null -out null ../../../data/heart_scale > our.txt 2>&1) &&
    [ -z "$(ls "$W/null_run" | grep -v '^our.txt$')" ] &&
    echo "ok   gpusvm-grid -png null -out null: no picture, no .out, nothing else written" ||
    { echo "FAIL gpusvm-grid -png null -out null wrote $(ls "$W/null_run" | tr '\n' ' ')"; fail=1; }
$B/gpusvm-grid -log2c -1,1,2 -log2g -3,-1,2 -v 2 -gnuplot null -out null -png "$W/gnu.png" data/heart_scale > /dev/null 2>&1 &&
    python3 -c "import sys, struct; sys.path.insert(0, 'tests/scripts'); import png_check; d = struct.unpack('>II', open('$W/gnu.png', 'rb').read()[16:24]); sys.exit(1 if png_check.check('$W/gnu.png', d[0], d[1]) else 0)" &&
    echo "ok   gpusvm-grid -gnuplot null: the picture is written as without it" ||
    { echo "FAIL gpusvm-grid -gnuplot null: no picture at -png"; fail=1; }
# every gamma in one batch against each gamma alone (one run per gamma): the same .out lines, on
# the C backend and on OpenCL (PoCL where that is the driver)
for be in cpu opencl; do
    GPUSVM_BACKEND=$be $B/gpusvm-grid -log2c -1,7,2 -log2g -7,-1,2 -v 5 -png null -out "$W/all.out" data/heart_scale \
        > /dev/null 2> "$W/all.err" || { echo "FAIL gpusvm-grid ($be): $(tail -n 1 "$W/all.err")"; fail=1; continue; }
    : > "$W/each.out"
    for g in -7 -5 -3 -1; do
        GPUSVM_BACKEND=$be $B/gpusvm-grid -log2c -1,7,2 -log2g $g,$g,2 -v 5 -png null -out "$W/one.out" \
            data/heart_scale > /dev/null 2>&1 && cat "$W/one.out" >> "$W/each.out"
    done
    if [ "$(sort "$W/all.out")" = "$(sort "$W/each.out")" ] && [ "$(wc -l < "$W/all.out")" -eq 20 ]; then
        echo "ok   gpusvm-grid ($be): every gamma in one batch gives each gamma's own .out lines (20 points)"
    else
        echo "FAIL gpusvm-grid ($be): one batch and one gamma a run differ:"
        diff "$W/all.out" "$W/each.out" | head -n 5
        fail=1
    fi
    [ $be = opencl ] || continue
    # a point a job on three lanes of the one device (queues side by side on its context); then the
    # device named twice (two devices, the grid's work too small to spread: the first's lanes)
    one=${GPUSVM_DEVICE:-0}
    case "$one" in *,* | all) one= ;; esac
    for sel in "$one" ${one:+"$one,$one"}; do
        what="three lanes of the device${sel:+ (GPUSVM_DEVICE=$sel)}"
        GPUSVM_BACKEND=$be GPUSVM_DEVICE=$sel GPUSVM_LANES=3 $B/gpusvm-grid -log2c -1,7,2 -log2g -7,-1,2 -v 5 -png null \
            -out "$W/lanes.out" data/heart_scale > /dev/null 2> "$W/lanes.err" ||
            { echo "FAIL gpusvm-grid ($what): $(tail -n 1 "$W/lanes.err")"; fail=1; continue; }
        if ! grep -q "20 jobs on 3 lanes of the device" "$W/lanes.err"; then
            echo "FAIL gpusvm-grid ($what): the points did not run on three lanes: $(grep 'grid:' "$W/lanes.err")"
            fail=1
        elif cmp -s "$W/all.out" "$W/lanes.out"; then
            echo "ok   gpusvm-grid ($be): a point a job on $what gives the one batch's .out, byte for byte"
        else
            echo "FAIL gpusvm-grid ($be): $what and one batch differ:"
            diff "$W/all.out" "$W/lanes.out" | head -n 5
            fail=1
        fi
    done
done
exit $fail
