/* bench/gen_dense.c: a deterministic dense two-class data set in LIBSVM format, on stdout.
 *
 *   gen_dense ROWS FEATURES SEED
 *
 * Two overlapping Gaussian clusters: row i is class +1 (even i) or -1 (odd i); every feature is
 * normal with mean +0.25 or -0.25 by class and standard deviation 1, so the classes overlap and a
 * kernel SVM keeps many support vectors, as large dense problems do. Values are printed with six
 * significant digits. The same arguments always give the same bytes (a 64-bit xorshift generator
 * and Box-Muller, no library randomness).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state;

static unsigned long long next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static double uniform(void) { return ((double)(next() >> 11) + 0.5) / 9007199254740992.0; }

static double normal(void) { return sqrt(-2.0 * log(uniform())) * cos(6.283185307179586 * uniform()); }

int main(int argc, char **argv)
{
    long rows, features, i, f;
    if (argc != 4 || (rows = atol(argv[1])) <= 0 || (features = atol(argv[2])) <= 0) {
        fprintf(stderr, "usage: gen_dense ROWS FEATURES SEED\n");
        return 2;
    }
    state = 88172645463325252ULL ^ (unsigned long long)atoll(argv[3]) * 2654435761ULL;
    if (!state) state = 1;
    for (i = 0; i < rows; ++i) {
        const double mean = (i % 2 == 0) ? 0.25 : -0.25;
        printf("%s", i % 2 == 0 ? "+1" : "-1");
        for (f = 0; f < features; ++f) printf(" %ld:%.6g", f + 1, mean + normal());
        if (putchar('\n') == EOF) return 1;
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
