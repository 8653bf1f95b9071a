/* GPUSVM_NO_RUNTIME_LINKING: the real <CL/cl.h> is included and every OpenCL entry point the
   library declares is assigned from the real function, so a declaration that disagrees with
   the real prototype fails to compile (warnings are errors). */
#define GPUSVM_NO_RUNTIME_LINKING
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"

int main(void)
{
    gpusvm_context *ctx = NULL;
    gpusvm_context_desc d;
    memset(&d, 0, sizeof d);
    d.ignore_environment = 1;
    d.backend = GPUSVM_BACKEND_CPU;
    if (gpusvm_context_create(&d, &ctx) != GPUSVM_OK) return 1;
    gpusvm_context_destroy(ctx);
    return 0;
}
