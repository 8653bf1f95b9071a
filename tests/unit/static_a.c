/* Two translation units, each with a private (GPUSVM_STATIC) copy of the library. */
#define GPUSVM_STATIC
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"

int static_b_works(void);

int main(void)
{
    return !(static_b_works() && gpusvm_result_string(GPUSVM_ERROR_PARSE)[0] == 'm');
}
