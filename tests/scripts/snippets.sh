#!/bin/sh
# snippets.sh OUT_DIR: every C snippet of README.md and docs/*.md (```c blocks) and the header's
# EXAMPLE compiles with warnings as errors, as C99 and, with {} for {0}, as C++11; each is built
# as written when it is a program (it has main), as a translation unit beside an empty main when
# it only includes the header, and otherwise as the body of main in a file that includes the
# header and <stdio.h>. Every snippet that becomes a program runs and must exit 0.
set -u
O=${1:-build/tests/snippets}
CC=${CC:-cc}
CXX=${CXX:-c++}
WARN="-Wall -Wextra -pedantic -Werror"
rm -rf "$O" && mkdir -p "$O"
fail=0
n=0
# the documents' blocks, one file each: $O/<doc>.<k>.txt
for doc in README.md docs/*.md; do
    base=$(echo "$doc" | tr '/' '_')
    awk -v out="$O/$base" '/^```c[ \t]*$/ { k++; on = 1; next } /^```/ { on = 0; next } on { print > (out "." k ".txt") }' "$doc"
done
# the header's EXAMPLE: from its #define to the program's closing brace, six spaces of indent off
awk '/^   EXAMPLE/ { on = 1; next } on && /^   Build:/ { exit } on && /^      / { print substr($0, 7) }' gpusvm.h > "$O/gpusvm.h.1.txt"
for s in "$O"/*.txt; do
    n=$((n + 1))
    c=${s%.txt}.c
    if grep -q 'int main' "$s"; then
        cp "$s" "$c"
    elif ! grep -v -E '^[[:space:]]*(#|$)' "$s" | grep -q .; then
        { cat "$s"; printf 'int main(void) { return 0; }\n'; } > "$c"
    else
        { printf '#define GPUSVM_IMPLEMENTATION\n#include "gpusvm.h"\n#include <stdio.h>\nint main(void)\n{\n'
          cat "$s"
          printf '    return 0;\n}\n'; } > "$c"
    fi
    name=$(basename "$s" .txt)
    sed 's/= {0}/= {}/g' "$c" > "${c%.c}.cpp"
    $CC -std=c99 $WARN -I. -o "${c%.c}" "$c" -ldl -lm > "${c%.c}.log" 2>&1 & pc=$! # the two side by side
    $CXX -std=c++11 $WARN -I. -o "${c%.c}_cpp" "${c%.c}.cpp" -ldl -lm > "${c%.c}_cpp.log" 2>&1 & pp=$!
    if ! wait $pc; then
        echo "FAIL $name: does not compile as C99"; sed 's/^/     /' "${c%.c}.log" | head -n 10; fail=$((fail + 1)); wait $pp; continue
    fi
    if ! wait $pp; then
        echo "FAIL $name: does not compile as C++11"; sed 's/^/     /' "${c%.c}_cpp.log" | head -n 10; fail=$((fail + 1)); continue
    fi
    if ! timeout 60 "${c%.c}" > "${c%.c}.out" 2>&1; then
        echo "FAIL $name: the program exits $?"; fail=$((fail + 1)); continue
    fi
    echo "ok   $name"
done
echo "snippets: $((n - fail)) of $n compile and run"
[ "$fail" = 0 ] && [ "$n" -gt 0 ]
