#!/bin/sh
# files.sh: where the tools write (models, predictions, scaling ranges) nothing the user had is
# lost or half-written: a symlink keeps being a link (its target gets the file), a FIFO and a
# device node are written in place and stay what they were, an existing file keeps its
# permissions, "-" is standard output, and a folder that cannot be written is an error that
# names it and leaves nothing behind. Prints "files: N passed, M failed".
W=build/files
. tests/suite.sh
H=data/heart_scale
export GPUSVM_BACKEND=cpu
exec 2>>"$W/stderr.txt" # the tools' progress lines; failures are checked from captured output

# a symlink: the target is replaced, the link stays
$B/gpusvm-train -q $H "$W/ref.model"
: > "$W/target.model"
ln -s target.model "$W/link.model"
$B/gpusvm-train -q $H "$W/link.model"
[ -L "$W/link.model" ] && cmp -s "$W/target.model" "$W/ref.model"
check $? "gpusvm-train to a symlink: the link stays, its target holds the model"
ln -s missing.model "$W/dangling.model"
$B/gpusvm-train -q $H "$W/dangling.model"
[ -L "$W/dangling.model" ] && cmp -s "$W/missing.model" "$W/ref.model"
check $? "gpusvm-train to a dangling symlink: the link stays, the file it names is created"

# an existing file keeps its permissions
cp "$W/ref.model" "$W/perm.model"
chmod 640 "$W/perm.model"
$B/gpusvm-train -q -c 2 $H "$W/perm.model"
[ "$(stat -c %a "$W/perm.model")" = 640 ] && ! cmp -s "$W/perm.model" "$W/ref.model"
check $? "gpusvm-train over a file with mode 640: rewritten, still 640"

# standard output
$B/gpusvm-train -q $H - > "$W/stdout.model"
cmp -s "$W/stdout.model" "$W/ref.model"
check $? "gpusvm-train to '-': the model on standard output"

# a FIFO: written in place, still a FIFO
mkfifo "$W/fifo"
cat "$W/fifo" > "$W/from_fifo" &
reader=$!
$B/gpusvm-train -q $H "$W/fifo"
rc=$?
wait $reader
[ $rc = 0 ] && [ -p "$W/fifo" ] && cmp -s "$W/from_fifo" "$W/ref.model"
check $? "gpusvm-train to a FIFO: the reader gets the model, the FIFO stays a FIFO"

# private device nodes (root only; never the system's /dev)
if mknod "$W/null" c 1 3 2>/dev/null && mknod "$W/full" c 1 7 2>/dev/null; then
    $B/gpusvm-train -q $H "$W/null"
    [ $? = 0 ] && [ -c "$W/null" ]
    check $? "gpusvm-train to a null device node: written, still a device node"
    out=$($B/gpusvm-train -q $H "$W/full" 2>&1)
    rc=$?
    [ $rc != 0 ] && [ -c "$W/full" ] && echo "$out" | grep -q "full: write failed"
    check $? "gpusvm-train to a full device node: an error naming it, still a device node ($out)"
else
    echo "skip device nodes: mknod needs root"
fi

# a folder that cannot be written: an error naming the folder, nothing left behind
mkdir -p "$W/ro"
cp "$W/ref.model" "$W/ro/keep.model"
chmod 555 "$W/ro"
as_user=""
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null 2>&1; then
    chmod o+rx "$W" "$B"
    as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
    # the unprivileged user must reach the tool and the data (a clone under /root may not let it)
    $as_user test -x $B/gpusvm-train -a -r $H 2>/dev/null || as_user=none
fi
if [ "$as_user" = none ]; then
    echo "skip read-only folder: an unprivileged user cannot reach this checkout"
elif [ "$(id -u)" != 0 ] || [ -n "$as_user" ]; then
    out=$($as_user $B/gpusvm-train -q $H "$W/ro/keep.model" 2>&1)
    rc=$?
    [ $rc != 0 ] && echo "$out" | grep -q "temporary file in its folder $W/ro" && cmp -s "$W/ro/keep.model" "$W/ref.model" &&
        [ "$(ls "$W/ro")" = keep.model ]
    check $? "gpusvm-train into a read-only folder: an error naming the folder, the old model unchanged ($out)"
else
    echo "skip read-only folder: running as root without setpriv"
fi
chmod 755 "$W/ro"

# prediction outputs and scaling ranges go through the same writer
: > "$W/pred.target"
ln -s pred.target "$W/pred.link"
$B/gpusvm-predict $H "$W/ref.model" "$W/pred.link" > /dev/null
[ -L "$W/pred.link" ] && [ "$(wc -l < "$W/pred.target")" = 270 ]
check $? "gpusvm-predict to a symlink: the link stays, its target holds 270 predictions"
: > "$W/range.target"
ln -s range.target "$W/range.link"
$B/gpusvm-scale -s "$W/range.link" $H > /dev/null
[ -L "$W/range.link" ] && head -n 1 "$W/range.target" | grep -q '^x$'
check $? "gpusvm-scale -s to a symlink: the link stays, its target holds the ranges"

# data from a pipe reads as the same data from a file (more than one read's worth)
cat $H $H $H $H > "$W/heart4.txt"
cat "$W/heart4.txt" | $B/gpusvm-train -q /dev/stdin "$W/pipe.model"
$B/gpusvm-train -q "$W/heart4.txt" "$W/file.model"
[ "$(wc -c < "$W/heart4.txt")" -gt 65536 ] && cmp -s "$W/pipe.model" "$W/file.model"
check $? "gpusvm-train reads $(wc -c < "$W/heart4.txt") bytes from a pipe as from the file"

# zero-based data is refused with its line, for training and prediction
printf '1 1:0.5 2:0.1\n-1 0:0.3 2:0.2\n' > "$W/zero.txt"
out=$($B/gpusvm-train "$W/zero.txt" "$W/zero.model" 2>&1)
[ $? != 0 ] && echo "$out" | grep -q "zero.txt:2: feature index 0" && [ ! -e "$W/zero.model" ]
check $? "gpusvm-train refuses index 0 (not -t 4) with file:line and writes no model"
out=$($B/gpusvm-predict "$W/zero.txt" "$W/ref.model" "$W/zero.pred" 2>&1)
[ $? != 0 ] && echo "$out" | grep -q "zero.txt:2: feature index 0" && [ ! -e "$W/zero.pred" ]
check $? "gpusvm-predict refuses index 0 for a model that is not precomputed"

summary files
