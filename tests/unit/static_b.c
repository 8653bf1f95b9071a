/* The second translation unit of the GPUSVM_STATIC check. */
#define GPUSVM_STATIC
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"

int static_b_works(void);
int static_b_works(void)
{
    gpusvm_context *ctx = NULL;
    gpusvm_context_desc d;
    int ok;
    memset(&d, 0, sizeof d);
    d.backend = GPUSVM_BACKEND_CPU;
    d.ignore_environment = 1;
    ok = gpusvm_context_create(&d, &ctx) == GPUSVM_OK;
    gpusvm_context_destroy(ctx);
    return ok;
}
