/* One exported model (EXPORT_H, its prefix EXPORT_NAME) built as C89 and as C99 by export.sh: each
   point of a LIBSVM file (argv[1]) gives a line of its label and its decision values, and
   export.sh compares the two builds' lines (C89's math.h has the double functions only). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include EXPORT_H
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define REAL CAT(EXPORT_NAME, _REAL)
#define N_FEATURES CAT(EXPORT_NAME, _N_FEATURES)
#define N_DEC CAT(EXPORT_NAME, _N_DEC)

int main(int argc, char **argv)
{
    static REAL x[N_FEATURES > 0 ? N_FEATURES : 1];
    REAL dec[N_DEC];
    static char line[1 << 16];
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    int d;
    if (!f) return 2;
    while (fgets(line, sizeof line, f)) {
        char *p = line, *e;
        memset(x, 0, sizeof x);
        (void)strtod(p, &e); /* the file's label */
        for (p = e;;) {
            const long j = strtol(p, &e, 10);
            double v;
            if (e == p || *e != ':') break;
            v = strtod(e + 1, &p);
            if (j >= 1 && j <= N_FEATURES) x[j - 1] = (REAL)v;
        }
        printf("%.9g", (double)CAT(EXPORT_NAME, _predict)(x));
        CAT(EXPORT_NAME, _decision)(x, dec);
        for (d = 0; d < N_DEC; ++d) printf(" %.8e", (double)dec[d]);
        putchar('\n');
    }
    fclose(f);
    return 0;
}
