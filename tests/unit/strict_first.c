/* Strict ISO C with a system header before the implementation: it builds (gpusvm declares the few
   POSIX functions the headers then hide), and the library's clock (training's info.seconds) is the
   wall clock, not CPU time: it sees a child's 0.2 s sleep, which the process's CPU time does not. */
#include <stdio.h>
#include <stdlib.h>
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"

int main(void)
{
    const double t0 = gpusvm__now();
    double t1;
    if (system("sleep 0.2") != 0) return 1;
    t1 = gpusvm__now();
    printf("strict_first: the library's clock saw %.3f s of a 0.2 s sleep\n", t1 - t0);
    return (t1 - t0 >= 0.15 && t1 - t0 < 5.0) ? 0 : 1;
}
