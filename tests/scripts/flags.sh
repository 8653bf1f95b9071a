#!/bin/sh
# flags.sh: the implementation compiles warning-free (-Wall -Wextra -pedantic -Werror) under the
# flags programs and distributions really use: each C standard (c99, c11, gnu17) with each feature
# macro (none, -pthread, _REENTRANT, POSIX 1995 and 2008, X/Open 7, _GNU_SOURCE, _DEFAULT_SOURCE),
# with gcc and clang, and GCC 14's new default errors (implicit declarations and int, int
# conversions, incompatible pointers, return mismatches) made errors explicitly where the compiler
# knows them; C++11 and C++17 with -pthread too; -Wshadow with gcc, clang and g++. Each line prints
# ok or FAIL; the last line is
# "flags: N passed, M failed".
cd "$(dirname "$0")/../.." || exit 1
T=build/tests/flags
mkdir -p "$T"
printf '#define GPUSVM_IMPLEMENTATION\n#include "../../../gpusvm.h"\n' > "$T/impl.c"
WARN="-Wall -Wextra -pedantic -Werror"

# GCC 14's errors, those the compiler accepts (gcc 12 has no -Werror=return-mismatch)
gcc14_errors() {
    out=""
    for f in -Werror=implicit-function-declaration -Werror=implicit-int -Werror=int-conversion \
             -Werror=incompatible-pointer-types -Werror=return-mismatch; do
        if echo "int x;" | "$1" -Werror -x c -c -o /dev/null "$f" - 2>/dev/null; then out="$out $f"; fi
    done
    echo "$out"
}

jobs=$T/jobs.txt
: > "$jobs"
for cc in gcc clang; do
    command -v $cc > /dev/null 2>&1 || continue
    extra=$(gcc14_errors $cc)
    for std in c99 c11 gnu17; do
        for macro in "" -pthread -D_REENTRANT -D_POSIX_C_SOURCE=199506L -D_POSIX_C_SOURCE=200809L \
                     -D_XOPEN_SOURCE=700 -D_GNU_SOURCE -D_DEFAULT_SOURCE; do
            echo "$cc -std=$std $macro $WARN$extra -fsyntax-only $T/impl.c" >> "$jobs"
        done
    done
done
for cxx in g++ clang++; do
    command -v $cxx > /dev/null 2>&1 || continue
    for std in c++11 c++17; do
        echo "$cxx -std=$std -pthread $WARN -x c++ -fsyntax-only $T/impl.c" >> "$jobs"
    done
done
# no local shadows another (-Wshadow), as C and as C++
for cc in gcc clang g++; do
    command -v $cc > /dev/null 2>&1 || continue
    case $cc in *++) lang="-std=c++11 -x c++" ;; *) lang="-std=c99" ;; esac
    echo "$cc $lang $WARN -Wshadow -fsyntax-only $T/impl.c" >> "$jobs"
done

pass=0
fail=0
n=0
# two at a time: each is a front-end pass over the whole implementation
while IFS= read -r cmd; do
    n=$((n + 1))
    ( if sh -c "$cmd" > "$T/out$n.txt" 2>&1; then echo "ok   $cmd"; else echo "FAIL $cmd"; head -n 5 "$T/out$n.txt"; fi ) &
    if [ $((n % 2)) = 0 ]; then wait; fi
done < "$jobs" > "$T/results.txt"
wait
cat "$T/results.txt"
pass=$(grep -c '^ok' "$T/results.txt")
fail=$(grep -c '^FAIL' "$T/results.txt")
echo "flags: $pass passed, $fail failed"
[ "$fail" = 0 ]
