/* examples/embedded/classify.c: a trained SVM in a microcontroller's flash. heart.h is the model
   as C source (gpusvm-export): const arrays and a float predictor that allocates nothing and needs
   no stdio. This file is all the firmware needs: built here for a Cortex-M4 with hardware float
   (make in this folder trains, exports and builds it, and reports its flash and RAM). */
#include "heart.h"

/* x: heart_N_FEATURES (13) scaled features, x[j] being feature j + 1 of the training file */
int classify(const float *x)
{
    return heart_predict(x);
}
