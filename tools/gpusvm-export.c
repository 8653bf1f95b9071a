/* gpusvm-export: a LIBSVM model file as C source, one header (gpusvm_model_to_c): const arrays
   and a static predictor that allocates nothing, needs no stdio, no OpenCL and no double
   arithmetic, for a microcontroller's flash or a game's code.
   Usage: gpusvm-export [-d] model_file [name] > model.h (model_file "-": standard input) */
#define GPUSVM_IMPLEMENTATION
#define GPUSVM_NO_OPENCL  /* nothing here runs on a device */
#define GPUSVM_NO_THREADS /* nor on threads: a model in, its C out */
#include "../gpusvm.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

static void usage(void)
{
    fprintf(stderr, "Usage: gpusvm-export [-d] model_file [name] > model.h   (model_file -: standard input)\n"
                    "  writes the model as C source on standard output: name_predict(x), name_decision(x, dec) and,\n"
                    "  for a model trained with -b 1, name_predict_probability(x, prob); x holds name_N_FEATURES\n"
                    "  values (x[j] is feature j + 1 of a LIBSVM file)\n"
                    "-d : double arithmetic and arrays (default float)\n"
                    "name: the prefix of every name (a C identifier; default: the model file's name, made one)\n");
}

/* The default name: the file's name without its folder and extension, each character that
   cannot be in a C identifier as '_', 'm' first where it starts with a digit or '_' (names that
   start with '_' are the C implementation's); "model" for standard input. */
static void name_of(const char *path, char *out, size_t size)
{
    const char *b = strrchr(path, '/'), *dot;
    size_t n = 0;
    b = strcmp(path, "-") == 0 ? "model" : b ? b + 1 : path;
    dot = strchr(b, '.');
    if ((isdigit((unsigned char)*b) || *b == '_') && n + 1 < size) out[n++] = 'm';
    for (; *b && b != dot && n + 1 < size && n < 64; ++b) out[n++] = isalnum((unsigned char)*b) ? *b : '_';
    if (n == 0) out[n++] = 'm';
    out[n] = 0;
}

/* The model from path, or from standard input where path is "-". */
static gpusvm_result load(gpusvm_context *ctx, const char *path, gpusvm_model **model)
{
    char *buf = NULL, *grown;
    size_t len = 0, cap = 0, got;
    gpusvm_result r;
    if (strcmp(path, "-") != 0) return gpusvm_model_load(ctx, path, model);
    do {
        if (len == cap) {
            if (!(grown = (char *)realloc(buf, cap = cap ? 2 * cap : 65536))) {
                free(buf);
                fprintf(stderr, "gpusvm-export: standard input: out of memory\n");
                exit(1);
            }
            buf = grown;
        }
        len += got = fread(buf + len, 1, cap - len, stdin);
    } while (got);
    if (ferror(stdin)) {
        free(buf);
        fprintf(stderr, "gpusvm-export: standard input could not be read\n");
        exit(1);
    }
    r = gpusvm_model_load_buffer(ctx, buf, len, model);
    free(buf);
    return r;
}

int main(int argc, char **argv)
{
    gpusvm_context_desc desc;
    gpusvm_context *ctx;
    gpusvm_model *model = NULL;
    char name[80], *text = NULL;
    size_t size = 0;
    int i = 1, dbl = 0, rc = 1;
    if (i < argc && strcmp(argv[i], "-d") == 0) dbl = 1, ++i;
    if (argc - i < 1 || argc - i > 2 || (argv[i][0] == '-' && argv[i][1])) {
        usage();
        return 1;
    }
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_CPU;
    if (gpusvm_context_create(&desc, &ctx) != GPUSVM_OK) {
        fprintf(stderr, "gpusvm-export: no context\n");
        return 1;
    }
    if (argc - i == 2) {
        snprintf(name, sizeof name, "%s", argv[i + 1]);
    } else {
        name_of(argv[i], name, sizeof name);
    }
    if (load(ctx, argv[i], &model) == GPUSVM_OK && gpusvm_model_to_c(ctx, model, name, dbl, &text, &size) == GPUSVM_OK) {
        if (fwrite(text, 1, size, stdout) == size && fflush(stdout) == 0) rc = 0;
        else fprintf(stderr, "gpusvm-export: standard output could not be written\n");
    } else {
        fprintf(stderr, "gpusvm-export: %s\n", gpusvm_context_error(ctx));
    }
    gpusvm_free(ctx, text);
    gpusvm_model_free(model);
    gpusvm_context_destroy(ctx);
    return rc;
}
