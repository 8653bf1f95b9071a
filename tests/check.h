/* check.h: the assertions the C tests share. Each CHECK counts; a failure prints its
   message and the line, and the test exits non-zero from check_summary(). */
#ifndef GPUSVM_CHECK_H
#define GPUSVM_CHECK_H
#include <stdio.h>
#include <time.h>

static int check_pass_ = 0, check_fail_ = 0;

#define CHECK(cond, msg)                                                        \
    do {                                                                        \
        if (cond) {                                                             \
            ++check_pass_;                                                      \
        } else {                                                                \
            ++check_fail_;                                                      \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, (msg));     \
        }                                                                       \
    } while (0)

/* A step that must return GPUSVM_OK: a failure stops the test. */
#define CHECK_OK(expr)                                                          \
    do {                                                                        \
        gpusvm_result check_r_ = (expr);                                        \
        if (check_r_ != GPUSVM_OK) {                                            \
            fprintf(stderr, "FAIL %s:%d: %s returned %s\n", __FILE__, __LINE__, \
                    #expr, gpusvm_result_string(check_r_));                     \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

/* A call's result r is error id on ctx: the id's result, and the id the context says. */
#define IS_ERROR(ctx, r, id) ((r) == gpusvm_error_result(id) && gpusvm_context_error_id(ctx) == (id))

static int check_summary(void)
{
    printf("%d checks passed, %d failed\n", check_pass_, check_fail_);
    return check_fail_ ? 1 : 0;
}
#endif
