/* The kernels' compile on the selected OpenCL device (GPUSVM_DEVICE, GPUSVM_BACKEND=opencl for a
 * CPU driver): each part built alone as the library builds it (a program of its own, no kernel
 * cache), then every kernel in one program, each a fresh compile from source. A driver's own cache
 * answers what it has seen: empty it first for a first run's times (NVIDIA: CUDA_CACHE_DISABLE=1
 * or rm -rf ~/.nv; PoCL: an empty POCL_CACHE_DIR). PoCL's times are its front end's: it compiles
 * each kernel natively at its first launch. Prints the date, the device and one line a part. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#define GPUSVM_IMPLEMENTATION
#include "../gpusvm.h"
#include <stdio.h>
#include <time.h>

int main(void)
{
    gpusvm_context_desc d;
    gpusvm_context *ctx = NULL;
    gpusvm__ocl *b;
    char day[32] = "";
    time_t now = time(NULL);
    double t0, t, sum = 0.0;
    int k;
    memset(&d, 0, sizeof d);
    d.kernel_cache_dir = "";
    setenv("GPUSVM_PROGRAMS", "each", 0); /* the context builds its first part alone */
    if (getenv("GPUSVM_BACKEND") == NULL) d.backend = GPUSVM_BACKEND_OPENCL;
    if (gpusvm_context_create(&d, &ctx) != GPUSVM_OK || gpusvm_context_backend(ctx) != GPUSVM_BACKEND_OPENCL) {
        printf("compile: skipped, no OpenCL device (%s)\n", ctx ? "the C backend" : "no context");
        gpusvm_context_destroy(ctx);
        return 0;
    }
    b = (gpusvm__ocl *)ctx->backend;
    strftime(day, sizeof day, "%Y-%m-%d", gmtime(&now));
    printf("the kernels' compile, %s, %s (seconds; every kernel in one program, then each part alone; "
           "the context built gpusvm_keys first)\n",
           day, gpusvm_context_device_name(ctx));
    gpusvm__ocl_release_kernels(b, GPUSVM__KS_ALL);
    b->one_program = 1;
    t0 = gpusvm__now();
    if (gpusvm__ocl_need(b, GPUSVM__KS_ALL) != GPUSVM_OK) {
        printf("every kernel in one program: %s\n", gpusvm_context_error(ctx));
        gpusvm_context_destroy(ctx);
        return 1;
    }
    printf("  one program       %6.3f\n", gpusvm__now() - t0);
    gpusvm__ocl_release_kernels(b, GPUSVM__KS_ALL);
    b->one_program = 0;
    for (k = 0; k < GPUSVM__KN_COUNT; ++k) {
        if (gpusvm__ocl_unit(b, k) != k) continue;
        t0 = gpusvm__now();
        if (gpusvm__ocl_need(b, (gpusvm__kset)1 << k) != GPUSVM_OK) {
            printf("part %s: %s\n", gpusvm__kernels[k].part, gpusvm_context_error(ctx));
            gpusvm_context_destroy(ctx);
            return 1;
        }
        t = gpusvm__now() - t0;
        sum += t;
        printf("  part %-12s %6.3f\n", gpusvm__kernels[k].part, t);
    }
    printf("  sum of the parts  %6.3f\n", sum);
    gpusvm_context_destroy(ctx);
    return 0;
}
