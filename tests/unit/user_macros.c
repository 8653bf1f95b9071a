/* The implementation first, in the compiler's default mode: the program's own M_PI, drand48 and
   usleep stay visible (gpusvm defines no feature macro for it). */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
    srand48(1);
    usleep(1);
    return (M_PI > 3.14 && drand48() < 1.0 && gpusvm_result_string(GPUSVM_OK)[0]) ? 0 : 1;
}
