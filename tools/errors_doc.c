/* errors_doc: writes docs/errors.md, the list of every error gpusvm reports, from the one list in
   gpusvm.h (GPUSVM__ERRORS); 'make docs' runs it, and 'make test' checks the file is in step. */
#include "../gpusvm.h"
#include <stdio.h>

int main(void)
{
    printf("# Errors\n\n"
           "Every error gpusvm reports, generated from the list in `gpusvm.h` (`GPUSVM__ERRORS`) by\n"
           "`tools/errors_doc.c` (`make docs`). A failing call returns the result; "
           "`gpusvm_context_error_id()`\n"
           "gives the id, `gpusvm_context_error()` the message with its detail (the field, the file and\n"
           "line, the OpenCL call and its code). Test for an id, not for words of the message.\n\n"
           "| id | result | what it means |\n"
           "|---|---|---|\n");
#define ROW(id, result, text) printf("| `GPUSVM_ERR_%s` | `%s` | %s |\n", #id, #result, text);
    GPUSVM__ERRORS(ROW)
#undef ROW
    printf("\n`gpusvm_predictor_predict` has no context: it returns `GPUSVM_ERROR_INVALID_ARGUMENT` for a\n"
           "NULL predictor, a NULL point with n > 0, or a NaN or infinite feature, and writes nothing.\n"
           "`gpusvm_model_linear_weights` returns `GPUSVM_ERROR_INVALID_ARGUMENT` for a model whose fields\n"
           "disagree, another kernel than linear, or a decision function the model lacks.\n");
    return 0;
}
