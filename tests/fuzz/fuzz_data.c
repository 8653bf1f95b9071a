/* libFuzzer target: the LIBSVM data reader on arbitrary bytes, with each way of reading index 0
   (by the input's length). Whatever it accepts must be a well-formed CSR matrix with each row's
   line, in order; whatever it rejects must say file:line. Built by 'make fuzz'. */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gpusvm_context *ctx = NULL;
    gpusvm_dataset *ds = NULL, *ds2 = NULL;
    gpusvm_result r;
    char *buf;
    size_t i, k;
    if (!ctx) {
        gpusvm_context_desc d;
        memset(&d, 0, sizeof d);
        d.backend = GPUSVM_BACKEND_CPU;
        d.ignore_environment = 1;
        if (gpusvm_context_create(&d, &ctx) != GPUSVM_OK) abort();
    }
    buf = (char *)malloc(size ? size : 1); /* exactly size bytes: reads past them are caught */
    if (!buf) return 0;
    memcpy(buf, data, size);
    {
        gpusvm_data_desc d;
        memset(&d, 0, sizeof d);
        d.bytes = data;
        d.size = size;
        d.name = "fuzz";
        d.index0 = (gpusvm_index0)(size % 3);
        r = gpusvm__parse_data(ctx, "fuzz", d.index0, buf, size, &ds);
        /* the public entry point takes the same bytes to the same verdict */
        if ((gpusvm_dataset_read(ctx, &d, &ds2) == GPUSVM_OK) != (r == GPUSVM_OK)) abort();
    }
    if (ds2 && (!ds || ds2->x.rows != ds->x.rows || ds2->row_ptr[ds2->x.rows] != ds->row_ptr[ds->x.rows])) abort();
    gpusvm_dataset_free(ds2);
    if (r == GPUSVM_OK) {
        if (ds->x.rows == 0 || ds->row_ptr[0] != 0) abort();
        for (i = 0; i < ds->x.rows; ++i) {
            if (ds->row_ptr[i + 1] < ds->row_ptr[i]) abort();
            if (ds->line[i] < 1 || (i > 0 && ds->line[i] <= ds->line[i - 1])) abort();
            if (!(fabs(ds->y[i]) <= DBL_MAX)) abort();
            for (k = ds->row_ptr[i]; k < ds->row_ptr[i + 1]; ++k) {
                if (ds->col_idx[k] < 0 || (size_t)ds->col_idx[k] >= ds->x.cols) abort();
                if (k > ds->row_ptr[i] && ds->col_idx[k] <= ds->col_idx[k - 1]) abort();
                if (!(fabsf(ds->values[k]) <= FLT_MAX)) abort();
            }
        }
        gpusvm_dataset_free(ds);
    } else if (strncmp(gpusvm_context_error(ctx), "fuzz:", 5) != 0) {
        abort(); /* every rejection names the file and line */
    }
    free(buf);
    return 0;
}
