/* examples/predict_only.c: a program that only predicts, as a game or an embedded tool does.

   The model ships inside the binary (LIBSVM's text, here trained by gpusvm-train on the four
   points of examples/quickstart.c), is loaded from memory, and is prepared once; every "frame"
   then classifies a point with gpusvm_predictor_predict, which needs no context and allocates
   nothing. Built with

       cc -O2 -I.. -DGPUSVM_PREDICT_ONLY -DGPUSVM_STATIC -DGPUSVM_NO_OPENCL -DGPUSVM_NO_THREADS predict_only.c -lm

   the trainer is not compiled in (GPUSVM_PREDICT_ONLY), every library function is static
   (GPUSVM_STATIC), so the compiler leaves out what the program never calls, and OpenCL and host
   threads are out (GPUSVM_NO_OPENCL, GPUSVM_NO_THREADS): 47 KB stripped on x86-64 with gcc 12 -O2 (56 KB with clang 14), against 125 KB
   for the same build of examples/quickstart.c, which trains. make test builds it that way with
   gcc and clang, runs it, checks the size against 64 KB and that no solver function is in the
   binary. */
#define GPUSVM_IMPLEMENTATION
#include "gpusvm.h" /* build with -I pointing at gpusvm.h's folder, e.g. cc -I.. */
#include <stdio.h>
#include <string.h>

static const char model_text[] = "svm_type c_svc\n"
                                 "kernel_type rbf\n"
                                 "gamma 0.5\n"
                                 "nr_class 2\n"
                                 "total_sv 4\n"
                                 "rho -8.4924678400710718e-10\n"
                                 "label 1 -1\n"
                                 "nr_sv 2 2\n"
                                 "SV\n"
                                 "0.62189250790544071 1:4 2:4\n"
                                 "0.62280435204619311 1:4 2:5\n"
                                 "-0.62189250790544071 1:0 2:0\n"
                                 "-0.62280435204619311 1:0 2:1\n";

int main(void)
{
    gpusvm_context_desc desc;
    gpusvm_context *ctx = NULL;
    gpusvm_model *model = NULL;
    gpusvm_predictor *predictor = NULL;
    int frame;
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_CPU;
    desc.ignore_environment = 1; /* a shipped program: the user's environment does not choose */
    if (gpusvm_context_create(&desc, &ctx) != GPUSVM_OK) return 1;
    if (gpusvm_model_load_buffer(ctx, model_text, sizeof model_text - 1, &model) != GPUSVM_OK ||
        gpusvm_predictor_create(ctx, model, &predictor) != GPUSVM_OK) {
        fprintf(stderr, "predict_only: %s\n", gpusvm_context_error(ctx));
        gpusvm_model_free(model);
        gpusvm_context_destroy(ctx);
        return 1;
    }
    printf("frames:");
    for (frame = 0; frame < 6; ++frame) { /* a point moving from one class's corner to the other's */
        const float x[2] = {(float)frame * 0.8f, (float)frame * 0.9f};
        double label = 0.0;
        if (gpusvm_predictor_predict(predictor, x, 2, &label, NULL) != GPUSVM_OK) continue; /* NaN in x, say */
        printf(" %g", label);
    }
    printf("\n");
    gpusvm_predictor_free(predictor);
    gpusvm_model_free(model);
    gpusvm_context_destroy(ctx);
    return 0;
}
