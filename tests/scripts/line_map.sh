#!/bin/sh
# line_map.sh: a build error in a kernel file names that file and line. A copy of gpusvm.h and
# kernels/ gets an unknown identifier before gpusvm_gather_block in kernels/30_smo.cl (its line,
# L, then holds it); tools/embed_kernels.c
# embeds the copy, a program built on it asks PoCL (GPUSVM_BACKEND=opencl) for a context, and the
# build log the failure carries must say kernels/30_smo.cl:L: (each file of the embedded program
# starts with a #line directive).
cd "$(dirname "$0")/../.." || exit 1
W=build/tests/line_map
rm -rf $W
mkdir -p $W/kernels
cp gpusvm.h kernels.cl.h $W/ && cp kernels/* $W/kernels/ || exit 1
L=$(grep -n '^__kernel void gpusvm_gather_block' kernels/30_smo.cl | cut -d: -f1)
[ -n "$L" ] || exit 1
awk -v L="$L" 'NR == L { print "gpusvm_no_such_identifier_here x;" } { print }' kernels/30_smo.cl > $W/kernels/30_smo.cl
( cd $W && ../../embed_kernels gpusvm.h kernels.cl.h kernels/00_shared.h $(cd ../../.. && ls kernels/*.cl | sort) ) || exit 1
cat > $W/probe.c <<'PROBE'
#define GPUSVM_IMPLEMENTATION
#include "gpusvm.h"
#include <stdio.h>
int main(void)
{
    gpusvm_context_desc d;
    gpusvm_context *c = NULL;
    static char why[1 << 16];
    memset(&d, 0, sizeof d);
    d.backend = GPUSVM_BACKEND_OPENCL;
    d.ignore_environment = 1;
    d.kernel_cache_dir = "";
    d.error = why;
    d.error_size = sizeof why;
    if (gpusvm_context_create(&d, &c) == GPUSVM_OK) return 1;
    fputs(why, stdout);
    return 0;
}
PROBE
${CC:-cc} -std=c99 -O0 -o $W/probe $W/probe.c -ldl -lm || exit 1
$W/probe > $W/log.txt
grep -q "kernels/30_smo.cl:$L:" $W/log.txt || { echo "no kernels/30_smo.cl:$L: in the log:"; grep -m 3 -i 'error' $W/log.txt; exit 1; }
