/* The number parser of the data and model readers against strtod, bit for bit: on random decimal
   strings (every length of mantissa, with and without fraction and exponent) and on every number
   of every data file named on the command line (xz files are read through xz -dc). */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include "../check.h"

static uint64_t rng = 88172645463325252ULL;
static unsigned next(unsigned bound)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % bound);
}

/* 1 when gpusvm__parse_double and strtod agree on the token (both refuse, or the same bits). */
static int agrees(const char *tok, size_t len)
{
    char tmp[1100], *e = NULL;
    double a = 0.0, b;
    int ok_a, ok_b;
    if (len >= sizeof tmp) return 1;
    memcpy(tmp, tok, len);
    tmp[len] = 0;
    ok_a = gpusvm__parse_double(tok, len, &a);
    b = strtod(tmp, &e);
    ok_b = len > 0 && e == tmp + len;
    return ok_a == ok_b && (!ok_a || memcmp(&a, &b, sizeof a) == 0);
}

static void random_strings(void)
{
    char s[64], msg[128];
    long bad = 0, k;
    for (k = 0; k < 400000; ++k) {
        int n = 0, d, digits = 1 + (int)next(24), dot = (int)next(digits + 2);
        if (next(3) == 0) s[n++] = next(2) ? '-' : '+';
        for (d = 0; d < digits; ++d) {
            if (d == dot) s[n++] = '.';
            s[n++] = (char)('0' + (next(4) == 0 ? 0 : next(10)));
        }
        if (next(3) == 0) n += snprintf(s + n, sizeof s - (size_t)n, "e%d", (int)next(70) - 35);
        s[n] = 0;
        if (!agrees(s, (size_t)n)) {
            if (bad < 5) fprintf(stderr, "differs from strtod: %s\n", s);
            ++bad;
        }
    }
    snprintf(msg, sizeof msg, "400000 random decimals parse to strtod's bits (%ld differ)", bad);
    CHECK(bad == 0, msg);
}

/* Every label and value of a data file (each token, and the part after a colon). */
static void file_numbers(const char *path)
{
    char cmd[1200], msg[1400], *buf = NULL, *p, *end;
    size_t len = 0, cap = 0, r, numbers = 0, bad = 0;
    const size_t pl = strlen(path);
    FILE *f;
    if (pl > 3 && strcmp(path + pl - 3, ".xz") == 0) {
        snprintf(cmd, sizeof cmd, "xz -dc '%s'", path);
        f = popen(cmd, "r");
    } else {
        f = fopen(path, "rb");
    }
    if (!f) {
        snprintf(msg, sizeof msg, "%s can be read", path);
        CHECK(0, msg);
        return;
    }
    do {
        if (len + 65536 > cap) buf = (char *)realloc(buf, cap = (cap + 65536) * 2);
        r = fread(buf + len, 1, cap - len, f);
        len += r;
    } while (r > 0);
    if (pl > 3 && strcmp(path + pl - 3, ".xz") == 0) pclose(f);
    else fclose(f);
    for (p = buf, end = buf + len; p < end;) {
        char *t = p, *colon;
        while (p < end && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') ++p;
        if (p > t) {
            colon = (char *)memchr(t, ':', (size_t)(p - t));
            if (colon) t = colon + 1;
            ++numbers;
            if (!agrees(t, (size_t)(p - t))) {
                if (bad < 5) fprintf(stderr, "%s: '%.*s' differs from strtod\n", path, (int)(p - t), t);
                ++bad;
            }
        }
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
    }
    snprintf(msg, sizeof msg, "%s: %lu numbers parse to strtod's bits (%lu differ)", path, (unsigned long)numbers,
             (unsigned long)bad);
    CHECK(numbers > 0 && bad == 0, msg);
    free(buf);
}

int main(int argc, char **argv)
{
    int i;
    random_strings();
    for (i = 1; i < argc; ++i) file_numbers(argv[i]);
    return check_summary();
}
