/* examples/embedded/run.c: the exported predictor on every bundled point (points.h, made by the
   Makefile from data/heart_scale), one label a line: the same program for the host and for ARM
   under qemu-arm (make run), whose outputs must be the library's (gpusvm-predict's). */
#include <stdio.h>
#include "heart.h"
#include "points.h"

int main(void)
{
    size_t i;
    for (i = 0; i < sizeof points / sizeof points[0]; ++i) printf("%d\n", heart_predict(points[i]));
    return 0;
}
