/* bench/gen_sparse.c: a deterministic text-like sparse data set in LIBSVM format, on stdout.
 *
 *   gen_sparse ROWS FEATURES NONZEROS CLASSES SEED
 *
 * Each row is a "document" of about NONZEROS draws of features (between half and one and a half
 * times that; repeated draws merge). Features are drawn as words are: nine in ten from a
 * Zipf-like background over every feature (a few very common, most rare), one in ten from its
 * class's own topic features (a disjoint slice of the feature space per class, also Zipf-like),
 * so the classes are learnable but overlap through the common features. Values are
 * tf-idf-like (1 + log of the draw count, times a random weight in [1, 1.9]), each row scaled
 * to unit length, as text is usually prepared. Labels: 1..CLASSES, or +1/-1 for two classes. The
 * same arguments always
 * give the same bytes (a 64-bit xorshift generator, no library randomness).
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

static double uniform(void) { return (double)(next() >> 11) / 9007199254740992.0; }

/* a Zipf-like rank in [0, n): (n + 1)^u - 1, the continuous inverse of the s = 1 law */
static long zipf(long n) { return (long)(pow((double)n + 1.0, uniform()) - 1.0) % n; }

static int cmp_long(const void *a, const void *b)
{
    const long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    long rows, d, nnz, classes, seed, i, k, topic;
    long *f;
    if (argc != 6 || (rows = atol(argv[1])) <= 0 || (d = atol(argv[2])) <= 0 || (nnz = atol(argv[3])) <= 0 ||
        (classes = atol(argv[4])) < 2 || (seed = atol(argv[5])) < 0) {
        fprintf(stderr, "usage: gen_sparse ROWS FEATURES NONZEROS CLASSES SEED\n");
        return 2;
    }
    topic = d / (2 * classes) > 1 ? d / (2 * classes) : 1;
    f = (long *)malloc((size_t)(3 * nnz / 2 + 2) * sizeof *f);
    if (!f) return 1;
    state = 0x9E3779B97F4A7C15ull ^ ((unsigned long long)seed * 0xD1B54A32D192ED03ull);
    for (i = 0; i < rows; ++i) {
        const long c = (long)(next() % (unsigned long long)classes);
        const long m = nnz / 2 + (long)(next() % (unsigned long long)(nnz + 1));
        long n = 0, j;
        double norm = 0.0;
        double *v;
        for (k = 0; k < m; ++k) {
            long r = next() % 10 ? zipf(d) : d / 2 + c * topic + zipf(topic);
            f[k] = (r * 2654435761L) % d; /* spread the ranks over the indices */
        }
        qsort(f, (size_t)m, sizeof *f, cmp_long);
        v = (double *)malloc((size_t)(m ? m : 1) * sizeof *v);
        if (!v) return 1;
        for (k = 0; k < m; k = j) { /* distinct features, with their draw counts */
            for (j = k; j < m && f[j] == f[k]; ++j) {}
            f[n] = f[k];
            v[n] = (1.0 + log((double)(j - k))) * (1.0 + 0.1 * (double)(next() % 10));
            norm += v[n] * v[n];
            ++n;
        }
        printf("%ld", classes == 2 ? (c ? 1L : -1L) : c + 1);
        for (k = 0; k < n; ++k) printf(" %ld:%.6g", f[k] + 1, v[k] / sqrt(norm));
        putchar('\n');
        free(v);
    }
    free(f);
    return 0;
}
