#!/bin/sh
# oclgrind_build.sh: builds Oclgrind 26.03.1 (jrprice/Oclgrind, BSD-3-Clause; its source as
# released, tests/kernels/oclgrind-src/oclgrind-26.03.1.tar.xz, with the patch beside it) into
# build/oclgrind, for tests/kernels/oclgrind.sh. Debian's package is 21.10, whose uninitialised-
# read check cannot simulate clang's 'freeze', so the kernels went under it built without
# optimisation; 26.03 simulates it, and with the patch (the intrinsics of fabs, fmax, sqrt, ...)
# the check runs on the kernels as the library builds them.
#
# Needs cmake, a C++ compiler, patch and LLVM 18 or later with clang's libraries and its clang
# (Debian/Ubuntu: llvm-19-dev libclang-19-dev clang-19 libpolly-19-dev libzstd-dev; tools/setup.sh
# test installs them). Cached: nothing is built again while build/oclgrind/stamp names this source,
# patch and script and the libraries it was linked with are there. Prints where the runtime is, or
# why there is none, and exits non-zero then.
cd "$(dirname "$0")/../.." || exit 1
V=26.03.1
S=tests/kernels/oclgrind-src
out=$PWD/build/oclgrind
stamp=$(cat "$S/oclgrind-$V.tar.xz" "$S/uninitialized-intrinsics.patch" "$0" | cksum | cut -d' ' -f1)
if [ -f "$out/lib/liboclgrind-rt-icd.so" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ] &&
   ! ldd "$out/lib/liboclgrind.so" 2> /dev/null | grep -q 'not found'; then
    echo "oclgrind $V: $out (built before)"
    exit 0
fi
llvm=
for v in 19 20 21 18; do
    d=/usr/lib/llvm-$v
    if [ -f $d/lib/cmake/llvm/LLVMConfig.cmake ] && [ -f $d/lib/libclangFrontend.a ] && [ -x $d/bin/clang ]; then
        llvm=$d
        break
    fi
done
[ -n "$llvm" ] || { echo "oclgrind $V: not built: no LLVM 18 or later with clang's libraries (/usr/lib/llvm-NN)"; exit 1; }
for t in cmake c++ patch xz; do
    command -v $t > /dev/null 2>&1 || { echo "oclgrind $V: not built: $t is not installed"; exit 1; }
done
w=build/oclgrind-work
rm -rf "$w" "$out" && mkdir -p "$w"
log=$PWD/$w/build.log
xz -dc "$S/oclgrind-$V.tar.xz" | tar xf - -C "$w" &&
    (cd "$w/oclgrind-$V" && patch -s -p1) < "$S/uninitialized-intrinsics.patch" || {
    echo "oclgrind $V: not built: the source or the patch does not unpack"; exit 1; }
# the PCH of OpenCL C's built-ins must come from the clang of the libraries linked (another
# version's crashes the compiler inside); the tests need no Python (CMake would look for them)
if (cd "$w" && mkdir b && cd b &&
    cmake "../oclgrind-$V" -DCMAKE_BUILD_TYPE=Release -DLLVM_DIR=$llvm/lib/cmake/llvm -DCLANG_ROOT=$llvm \
        -DCLANG=$llvm/bin/clang -DCMAKE_INSTALL_PREFIX="$out" -DCMAKE_INSTALL_RPATH="$out/lib" \
        -DCMAKE_DISABLE_FIND_PACKAGE_PythonInterp=TRUE &&
    make -j"$(nproc 2> /dev/null || echo 2)" && make install) > "$log" 2>&1 &&
    [ -f "$out/lib/liboclgrind-rt-icd.so" ]; then
    echo "$stamp" > "$out/stamp"
    rm -rf "$w"
    echo "oclgrind $V: $out (built with $llvm)"
    exit 0
fi
echo "oclgrind $V: not built: see $log"
tail -n 5 "$log"
exit 1
