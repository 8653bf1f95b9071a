/* quickstart.c: train on a small dense array, predict, print (the README's example). */
#define GPUSVM_IMPLEMENTATION
#include "gpusvm.h" /* build with -I pointing at gpusvm.h's folder, e.g. cc -I.. */
#include <stdio.h>

int main(void)
{
    const float x[8] = { 0,0,  0,1,  4,4,  4,5 };      /* 4 points, 2 features */
    const double y[4] = { -1, -1, 1, 1 };
    gpusvm_matrix m = {0};
    gpusvm_params params = {0};                          /* LIBSVM's defaults */
    gpusvm_context *ctx; gpusvm_model *model; double pred[4] = {0, 0, 0, 0};
    m.layout = GPUSVM_LAYOUT_DENSE; m.rows = 4; m.cols = 2; m.values = x;
    if (gpusvm_context_create(NULL, &ctx) != GPUSVM_OK) return 1;
    if (gpusvm_train(ctx, &m, y, &params, &model) != GPUSVM_OK) return 1;
    if (gpusvm_predict(ctx, model, &m, pred, NULL) != GPUSVM_OK) return 1;
    printf("device: %s, predictions: %g %g %g %g\n",
           gpusvm_context_device_name(ctx), pred[0], pred[1], pred[2], pred[3]);
    gpusvm_model_free(model);
    gpusvm_context_destroy(ctx);
    return 0;
}
