/* reader.c FILE...: how fast gpusvm_dataset_load reads LIBSVM files (the whole call: reading the
   file and parsing it), on one thread and on every core; best of 3. Prints a markdown row per
   file: MB, seconds and MB/s for both. */
#define GPUSVM_IMPLEMENTATION
#include "../gpusvm.h"

static double best_load(int threads, const char *path, size_t *bytes, int *used)
{
    gpusvm_context_desc desc;
    gpusvm_context *ctx = NULL;
    gpusvm_dataset *ds = NULL;
    double best = 1e30, t0, t;
    int run;
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_CPU;
    desc.threads = threads;
    if (gpusvm_context_create(&desc, &ctx) != GPUSVM_OK) return -1.0;
    *used = ctx->threads;
    for (run = 0; run < 3; ++run) {
        t0 = gpusvm__now();
        if (gpusvm_dataset_load(ctx, path, &ds) != GPUSVM_OK) {
            fprintf(stderr, "reader: %s\n", gpusvm_context_error(ctx));
            gpusvm_context_destroy(ctx);
            return -1.0;
        }
        t = gpusvm__now() - t0;
        if (t < best) best = t;
        gpusvm_dataset_free(ds);
    }
    gpusvm_context_destroy(ctx);
    {
        FILE *f = fopen(path, "rb");
        if (f && fseek(f, 0, SEEK_END) == 0) *bytes = (size_t)ftell(f);
        if (f) fclose(f);
    }
    return best;
}

int main(int argc, char **argv)
{
    int i, used1 = 1, usedn = 1;
    printf("| file | MB | 1 thread: s (MB/s) | every core: threads, s (MB/s) |\n|---|---|---|---|\n");
    for (i = 1; i < argc; ++i) {
        size_t bytes = 0;
        const double t1 = best_load(1, argv[i], &bytes, &used1), tn = best_load(0, argv[i], &bytes, &usedn);
        const double mb = (double)bytes / 1e6;
        if (t1 < 0 || tn < 0) continue;
        printf("| %s | %.1f | %.3f (%.0f) | %d, %.3f (%.0f) |\n", argv[i], mb, t1, mb / t1, usedn, tn, mb / tn);
    }
    return 0;
}
