#!/bin/sh
# setup.sh demo|check|test: installs what gpusvm's demo or tests need and is missing, through apt
# when this is a Debian/Ubuntu machine and we may (root, or sudo without a password);
# otherwise it names what to install and, for the tests, stops.
#   demo: an OpenCL runtime (the ICD loader and PoCL, which runs OpenCL on the CPU), xz
#   check: the same, plus LIBSVM's tools (the reference) and a C++ compiler
#   test: the same, plus LIBSVM's tools (the reference), OpenCL headers, a C++ compiler,
#         clang with its sanitizer and libFuzzer runtimes, valgrind, Open MPI (mpicc, mpirun),
#         oclgrind (a simulated OpenCL device that checks every memory access) and python3's
#         venv; then Intel's OpenCL runtime for CPUs, from PyPI into build/intel-ocl (a third
#         OpenCL implementation for the tests; about 0.8 GB; where pip cannot get it, the tests
#         that use it say so and skip), the ARM cross compilers and qemu-arm (the exported
#         models' embedded check; it skips without them), and Oclgrind 26.03.1 built from its
#         source into build/oclgrind (LLVM and clang 19 from apt, about 1 GB; where it cannot be
#         built, the kernel checks use Debian's oclgrind 21.10)
what=${1:-demo}
pkgs=""
add() { pkgs="$pkgs $1"; }

if ! { ldconfig -p 2>/dev/null | grep -q 'libOpenCL\.so\.1'; } ; then add ocl-icd-libopencl1; fi
if ! ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then add pocl-opencl-icd; fi
command -v xz >/dev/null 2>&1 || add xz-utils
if [ "$what" = check ]; then
    command -v svm-train >/dev/null 2>&1 || add libsvm-tools
    command -v c++ >/dev/null 2>&1 || add g++
fi
if [ "$what" = test ]; then
    command -v svm-train >/dev/null 2>&1 || add libsvm-tools
    [ -f /usr/include/CL/cl.h ] || add opencl-c-headers
    command -v c++ >/dev/null 2>&1 || add g++
    command -v valgrind >/dev/null 2>&1 || add valgrind
    command -v mpicc >/dev/null 2>&1 || add libopenmpi-dev
    command -v mpirun >/dev/null 2>&1 || add openmpi-bin
    [ -f /usr/lib/oclgrind/liboclgrind-rt-icd.so ] || add oclgrind
    python3 -c 'import ensurepip' >/dev/null 2>&1 || add python3-venv
    # clang with its sanitizer and libFuzzer runtimes
    probe=$(mktemp -d)
    printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$probe/f.c"
    if ! clang -fsanitize=fuzzer,address,undefined -o "$probe/f" "$probe/f.c" >/dev/null 2>&1; then
        command -v clang >/dev/null 2>&1 || add clang
        v=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)
        add "libclang-rt-${v:-14}-dev"
    fi
    rm -rf "$probe"
fi
# Intel's OpenCL runtime for CPUs, into a virtual environment of its own (its loader and driver
# are used through LD_LIBRARY_PATH and OCL_ICD_FILENAMES by tests/run.sh alone)
intel() {
    v=build/intel-ocl
    [ -f $v/lib/libintelocl.so ] && return 0
    command -v python3 >/dev/null 2>&1 || return 0
    echo "setup: installing Intel's OpenCL runtime for CPUs into $v (pip: intel-opencl-rt)"
    rm -rf $v
    if ! { python3 -m venv $v >/dev/null 2>&1 &&
           $v/bin/pip install -q intel-opencl-rt intel-cmplr-lib-rt tbb >/dev/null 2>&1 &&
           [ -f $v/lib/libintelocl.so ]; }; then
        echo "setup: pip could not install intel-opencl-rt; the tests that use it will skip" >&2
        rm -rf $v
    fi
}
# quietly PKGS WHAT: apt-get installs PKGS where it can (root, or sudo without a password), for
# an optional part of the tests; where it cannot, says that WHAT
quietly() {
    command -v apt-get >/dev/null 2>&1 || return 1
    if [ "$(id -u)" = 0 ]; then s=""; elif sudo -n true 2>/dev/null; then s="sudo -n"; else return 1; fi
    echo "setup: installing $1"
    export DEBIAN_FRONTEND=noninteractive
    $s apt-get install -y -qq --no-install-recommends $1 >/dev/null 2>&1 ||
        { $s apt-get update -qq >/dev/null 2>&1 && $s apt-get install -y -qq --no-install-recommends $1 >/dev/null 2>&1; } ||
        { echo "setup: apt-get could not install $1; $2" >&2; return 1; }
}
# the cross compilers and qemu-arm of the exported models' embedded check (tests/scripts/export.sh says
# that it skips without them)
arm() {
    p=""
    command -v arm-none-eabi-gcc >/dev/null 2>&1 || p="$p gcc-arm-none-eabi libnewlib-arm-none-eabi"
    command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1 || p="$p gcc-arm-linux-gnueabihf libc6-dev-armhf-cross"
    command -v qemu-arm >/dev/null 2>&1 || p="$p qemu-user"
    [ -z "$p" ] || quietly "${p# }" "the embedded checks of the exported models will skip"
}
# Oclgrind 26.03.1 from its source into build/oclgrind (tests/kernels/oclgrind_build.sh; cached),
# with LLVM and clang of 18 or later; where that cannot be had, tests/kernels/oclgrind.sh uses
# Debian's 21.10
oclgrind_src() {
    if o=$(sh tests/kernels/oclgrind_build.sh 2>&1); then
        case $o in *"built before"*) ;; *) echo "setup: $o" ;; esac
        return 0
    fi
    v=$(for v in 19 20 21 18; do apt-cache show llvm-$v-dev >/dev/null 2>&1 && { echo $v; break; }; done)
    w="tests/kernels/oclgrind.sh will use Debian's Oclgrind 21.10"
    if [ -n "$v" ]; then
        quietly "llvm-$v-dev libclang-$v-dev clang-$v libpolly-$v-dev libzstd-dev cmake patch" "$w"
    fi
    echo "setup: building Oclgrind 26.03.1 from source (tests/kernels/oclgrind_build.sh)"
    sh tests/kernels/oclgrind_build.sh || echo "setup: $w" >&2
}
if [ -z "$pkgs" ]; then
    [ "$what" = test ] && { intel; arm; oclgrind_src; }
    exit 0
fi

if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; else sudo=none; fi
    if [ "$sudo" != none ]; then
        echo "setup: installing$pkgs"
        export DEBIAN_FRONTEND=noninteractive
        if $sudo apt-get install -y -qq $pkgs >/dev/null 2>&1 ||
           { $sudo apt-get update -qq >/dev/null 2>&1 && $sudo apt-get install -y -qq $pkgs >/dev/null; }; then
            [ "$what" = test ] && { intel; arm; oclgrind_src; }
            exit 0
        fi
        echo "setup: apt-get could not install$pkgs" >&2
    fi
fi
echo "setup: please install:$pkgs" >&2
echo "  (Debian/Ubuntu package names; elsewhere: an OpenCL ICD loader and a driver such as PoCL," >&2
echo "   a GPU vendor's OpenCL, or Intel's compute runtime; LIBSVM's svm-train/svm-predict for the tests)" >&2
if [ "$what" != demo ]; then exit 1; fi
echo "setup: the demo goes on with what is here (without OpenCL it uses the built-in C backend)" >&2
exit 0
