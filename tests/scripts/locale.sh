#!/bin/sh
# locale.sh: what the library and the tools write does not depend on the locale. A locale whose
# decimal point is a comma (de_DE.UTF-8; made with localedef into build/locale where the machine
# lacks it) against "C": tests/scripts/locale_check.c (models, C source, errors, logs, the
# formatter, what it reads, the program calling setlocale; also under ps_AF.UTF-8, whose point is
# two bytes), then each tool run under LC_ALL of that locale against LC_ALL=C, byte for byte: gpusvm-train (model, cross-validation), gpusvm-predict (-b 1), gpusvm-scale (data,
# range file), gpusvm-grid (.out and its picture), gpusvm-export; their messages too, but for the
# seconds a training took. Prints "locale: N passed, M failed".
set -u
B=build
W=$B/locale-run
CC=${CC:-cc}
WARN="-Wall -Wextra -pedantic -Werror"
mkdir -p "$W"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
L=de_DE.UTF-8
M=ps_AF.UTF-8 # a decimal point of two bytes (U+066B): the library's texts under it too
mkdir -p $B/locale
for loc in $L $M; do
    if [ ! -d $B/locale/$loc ] && ! localedef -i ${loc%.UTF-8} -f UTF-8 $B/locale/$loc > "$W/localedef.log" 2>&1; then
        echo "FAIL locale: localedef could not make $loc ($(tail -n 1 "$W/localedef.log"))"
        echo "locale: 0 passed, 1 failed"
        exit 1
    fi
done
LOCPATH=$(pwd)/$B/locale
export LOCPATH
$CC -std=c99 -O1 $WARN -o "$W/locale_check" tests/scripts/locale_check.c -ldl -lm > "$W/build.log" 2>&1
for loc in $L $M; do
    if [ -x "$W/locale_check" ] && "$W/locale_check" data/heart_scale $loc > "$W/check.log" 2>&1; then
        ok "the library under $loc: $(tail -n 1 "$W/check.log")"
    else
        bad "the library under $loc: $(tail -n 3 "$W/check.log" "$W/build.log" 2>/dev/null | tr '\n' ' ')"
    fi
done
H=data/heart_scale
# each tool twice (LC_ALL=C, then the comma locale), its standard output and files compared
both() { # both NAME COMMAND... (FILE in the command: written by it, compared too)
    name=$1
    shift
    for loc in C $L; do
        rm -f "$W/FILE"
        LC_ALL=$loc GPUSVM_BACKEND=cpu "$@" > "$W/out.$loc" 2> "$W/err.all"
        echo $? >> "$W/out.$loc"
        grep -v -e 'training time' -e 'done, [0-9]* s' "$W/err.all" > "$W/err.$loc" # seconds vary from run to run
        [ -f "$W/FILE" ] && cp "$W/FILE" "$W/file.$loc" || : > "$W/file.$loc"
    done
    if cmp -s "$W/out.C" "$W/out.$L" && cmp -s "$W/file.C" "$W/file.$L" && cmp -s "$W/err.C" "$W/err.$L"; then
        ok "$name: the same bytes under $L as under C"
    else
        bad "$name differs under $L: $(diff "$W/out.C" "$W/out.$L" | head -n 3 | tr '\n' ' ')"
    fi
}
both "gpusvm-train's model" $B/gpusvm-train -t 1 -g 0.0769230798 -r 0.5 -c 2.5 $H "$W/FILE"
both "gpusvm-train -v 5" $B/gpusvm-train -v 5 -c 3.5 $H
$B/gpusvm-train -q -b 1 $H "$W/b.model"
both "gpusvm-predict -b 1" $B/gpusvm-predict -b 1 $H "$W/b.model" "$W/FILE"
both "gpusvm-scale (data and range file)" $B/gpusvm-scale -l -0.5 -u 0.75 -s "$W/FILE" $H
both "gpusvm-grid (.out)" $B/gpusvm-grid -log2c -1,3,2 -log2g -5,-1,2 -v 3 -out "$W/FILE" -png null $H
both "gpusvm-grid (picture)" $B/gpusvm-grid -log2c -1,3,2 -log2g -5,-1,2 -v 3 -out null -png "$W/FILE" $H
both "gpusvm-export" $B/gpusvm-export "$W/b.model" heart
echo "locale: $pass passed, $fail failed"
[ "$fail" = 0 ]
