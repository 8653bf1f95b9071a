/* embed_kernels: turns the .cl files of kernels/ into C string literals.
 *
 *   embed_kernels [--check] HEADER OUT_H file.cl...
 *
 * Writes OUT_H (kernels.cl.h) and replaces the block between the marker lines
 * "// >>kernels" and "// <<kernels" in HEADER (gpusvm.h) with the same array:
 * one string literal per source line (so -pedantic and MSVC's literal limit
 * are never reached), each file preceded by a #line directive so that build
 * logs name the .cl file and line. With --check nothing is written; the exit
 * status is 1 when either file differs from what would be written.
 * Files are written to a temporary name and renamed into place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char *p; size_t n, cap; } buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n + 1) cap *= 2;
        b->p = (char *)realloc(b->p, cap);
        if (!b->p) { fprintf(stderr, "embed_kernels: out of memory\n"); exit(2); }
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

static int slurp(const char *path, buf *out)
{
    FILE *f = fopen(path, "rb");
    char tmp[65536];
    size_t r;
    if (!f) { fprintf(stderr, "embed_kernels: %s: cannot open\n", path); return 0; }
    while ((r = fread(tmp, 1, sizeof tmp, f)) > 0) put(out, tmp, r);
    if (ferror(f)) { fclose(f); fprintf(stderr, "embed_kernels: %s: read error\n", path); return 0; }
    fclose(f);
    if (!out->p) put(out, "", 0);
    return 1;
}

/* One literal per line: "text\n", with \ " and tabs escaped. */
static void literal_line(buf *b, const char *s, size_t n)
{
    size_t i;
    puts_(b, "    \"");
    for (i = 0; i < n; ++i) {
        char c = s[i];
        if (c == '\r') continue;
        if (c == '\\') puts_(b, "\\\\");
        else if (c == '"') puts_(b, "\\\"");
        else if (c == '\t') puts_(b, "\\t");
        else put(b, &c, 1);
    }
    puts_(b, "\\n\",\n");
}

static int write_if(const char *path, const buf *b, int check)
{
    buf old = {0, 0, 0};
    FILE *f;
    char tmp[4096];
    int same;
    f = fopen(path, "rb");
    if (f) { fclose(f); if (!slurp(path, &old)) return 0; }
    same = old.p && old.n == b->n && memcmp(old.p, b->p, b->n) == 0;
    free(old.p);
    if (check) {
        if (!same) fprintf(stderr, "embed_kernels: %s is out of step with the .cl files in kernels/ (run 'make kernels')\n", path);
        return same;
    }
    if (same) return 1;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    f = fopen(tmp, "wb");
    if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f) != 0) {
        fprintf(stderr, "embed_kernels: %s: write failed\n", tmp);
        remove(tmp);
        return 0;
    }
    if (rename(tmp, path) != 0) { fprintf(stderr, "embed_kernels: cannot rename %s\n", tmp); return 0; }
    return 1;
}

int main(int argc, char **argv)
{
    int check = 0, a = 1, i, ok = 1, lines = 0;
    const char *header, *out_h;
    buf arr = {0, 0, 0}, kh = {0, 0, 0}, hdr = {0, 0, 0}, nh = {0, 0, 0};
    const char *open_mark = "// >>kernels", *close_mark = "// <<kernels";
    char *b, *e, num[64];

    if (a < argc && strcmp(argv[a], "--check") == 0) { check = 1; ++a; }
    if (argc - a < 3) {
        fprintf(stderr, "usage: embed_kernels [--check] gpusvm.h kernels.cl.h kernels/*.cl\n");
        return 2;
    }
    header = argv[a];
    out_h = argv[a + 1];

    puts_(&arr, "static const char *const gpusvm__kernel_source[] = {\n");
    for (i = a + 2; i < argc; ++i) {
        buf src = {0, 0, 0};
        const char *p, *end;
        if (!slurp(argv[i], &src)) return 2;
        snprintf(num, sizeof num, "%s", argv[i]);
        puts_(&arr, "    \"#line 1 \\\"");
        puts_(&arr, num);
        puts_(&arr, "\\\"\\n\",\n");
        ++lines;
        p = src.p;
        end = src.p + src.n;
        while (p < end) {
            const char *nl = (const char *)memchr(p, '\n', (size_t)(end - p));
            size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
            literal_line(&arr, p, n);
            ++lines;
            p += n + (nl ? 1 : 0);
        }
        free(src.p);
    }
    puts_(&arr, "};\n");
    snprintf(num, sizeof num, "#define GPUSVM__KERNEL_SOURCE_LINES %d\n", lines);
    puts_(&arr, num);

    puts_(&kh, "/* kernels.cl.h: the OpenCL C sources of gpusvm, generated from the .cl files in kernels/\n"
               " * by tools/embed_kernels.c ('make kernels'). Do not edit. gpusvm.h embeds\n"
               " * the same array; this copy is for tools that want the sources alone. */\n"
               "#ifndef GPUSVM_KERNELS_CL_H\n#define GPUSVM_KERNELS_CL_H\n");
    put(&kh, arr.p, arr.n);
    puts_(&kh, "#endif /* GPUSVM_KERNELS_CL_H */\n");

    if (!slurp(header, &hdr)) return 2;
    b = strstr(hdr.p, open_mark);
    e = b ? strstr(b, close_mark) : NULL;
    if (!b || !e) {
        fprintf(stderr, "embed_kernels: %s lacks the '%s' ... '%s' block\n", header, open_mark, close_mark);
        return 2;
    }
    b = strchr(b, '\n');
    if (!b || b > e) { fprintf(stderr, "embed_kernels: malformed marker in %s\n", header); return 2; }
    ++b;
    put(&nh, hdr.p, (size_t)(b - hdr.p));
    put(&nh, arr.p, arr.n);
    put(&nh, e, hdr.n - (size_t)(e - hdr.p));

    ok = write_if(out_h, &kh, check) && ok;
    ok = write_if(header, &nh, check) && ok;
    free(arr.p); free(kh.p); free(hdr.p); free(nh.p);
    return ok ? 0 : 1;
}
