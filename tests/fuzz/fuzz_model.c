/* libFuzzer target: the LIBSVM model loader on arbitrary bytes; a model it accepts must also
   predict (or refuse with a result code) without a crash. Built by 'make fuzz'. */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gpusvm_context *ctx = NULL;
    gpusvm_model *m = NULL, *m2 = NULL;
    gpusvm_result r0, r1;
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
    /* the public buffer entry point takes the same bytes to the same verdict, and an accepted
       model's own text loads again */
    r1 = gpusvm_model_load_buffer(ctx, data, size, &m2);
    gpusvm_model_free(m2);
    m2 = NULL;
    r0 = gpusvm__parse_model(ctx, "fuzz", buf, size, &m);
    if ((r0 == GPUSVM_OK) != (r1 == GPUSVM_OK)) abort();
    if (r0 == GPUSVM_OK) {
        char *text = NULL;
        size_t tl = 0;
        if (gpusvm_model_save_buffer(ctx, m, &text, &tl) != GPUSVM_OK ||
            gpusvm_model_load_buffer(ctx, text, tl, &m2) != GPUSVM_OK || m2->total_sv != m->total_sv ||
            m2->nr_class != m->nr_class)
            abort();
        gpusvm_free(ctx, text);
        gpusvm_model_free(m2);
        m2 = NULL;
    }
    if (r0 == GPUSVM_OK) {
        const float x[6] = {0.5f, -1.0f, 0.0f, 2.0f, 0.25f, 1.0f};
        double labels[2], *dec = (double *)malloc((2 * gpusvm_model_decision_count(m) + 1) * sizeof(double));
        gpusvm_matrix mx;
        gpusvm_result r;
        if (!dec) abort();
        memset(&mx, 0, sizeof mx);
        mx.rows = 2;
        mx.cols = 3;
        mx.values = x;
        if (m->total_sv <= 4096) { /* bounded work per input */
            r = gpusvm_predict(ctx, m, &mx, labels, dec);
            if (r != GPUSVM_OK && r != GPUSVM_ERROR_UNSUPPORTED && r != GPUSVM_ERROR_INVALID_ARGUMENT &&
                r != GPUSVM_ERROR_OUT_OF_MEMORY)
                abort();
        }
        free(dec);
        gpusvm_model_free(m);
    } else if (strncmp(gpusvm_context_error(ctx), "fuzz:", 5) != 0) {
        abort();
    }
    free(buf);
    return 0;
}
