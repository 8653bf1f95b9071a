/* libFuzzer target: the LIBSVM model loader on arbitrary bytes; a model it accepts must also
   predict (or refuse with a result code) without a crash. Built by 'make fuzz'. */
#define GPUSVM_IMPLEMENTATION
#include "../gpusvm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gpusvm_context *ctx = NULL;
    gpusvm_model *m = NULL;
    char *buf;
    if (!ctx) {
        gpusvm_context_desc d;
        memset(&d, 0, sizeof d);
        d.backend = GPUSVM_BACKEND_CPU;
        d.ignore_environment = 1;
        if (gpusvm_context_create(&d, &ctx) != GPUSVM_OK) abort();
    }
    buf = (char *)malloc(size ? size : 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    if (gpusvm__parse_model(ctx, "fuzz", buf, size, &m) == GPUSVM_OK) {
        const float x[6] = {0.5f, -1.0f, 0.0f, 2.0f, 0.25f, 1.0f};
        double labels[2], dec[2 * 64 * 63 / 2]; /* nr_class <= 64: pairs per row, two rows */
        gpusvm_matrix mx;
        gpusvm_result r;
        memset(&mx, 0, sizeof mx);
        mx.rows = 2;
        mx.cols = 3;
        mx.values = x;
        if (m->total_sv <= 4096) { /* bounded work per input */
            r = gpusvm_predict(ctx, m, &mx, labels, dec);
            if (r != GPUSVM_OK && r != GPUSVM_ERROR_UNSUPPORTED && r != GPUSVM_ERROR_INVALID_ARGUMENT) abort();
        }
        gpusvm_model_free(m);
    } else if (strncmp(gpusvm_context_error(ctx), "fuzz:", 5) != 0) {
        abort();
    }
    free(buf);
    return 0;
}
