/* The header included twice: declarations first, then the implementation. Compiled as C99
   and as C++11 with warnings as errors; the program checks one call works. */
#include "../../gpusvm.h"
#include "../../gpusvm.h"
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include "../../gpusvm.h"
#include <string.h>

int main(void)
{
    return strcmp(gpusvm_result_string(GPUSVM_OK), "success") != 0;
}
