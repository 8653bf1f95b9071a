/* embed_kernels: turns the kernel sources of kernels/ into C string literals.
 *
 *   embed_kernels [--check] HEADER OUT_H shared.h file.cl...
 *
 * Writes OUT_H (kernels.cl.h) and replaces the block between the marker lines
 * "// >>kernels" and "// <<kernels" in HEADER (gpusvm.h) with the same array:
 * one string literal per source line (so -pedantic and MSVC's literal limit
 * are never reached), each file preceded by a #line directive so that build
 * logs name the file and line. The .h files (the definitions host and kernels
 * share) come first in the program, and their text also replaces the block
 * between "// >>shared" and "// <<shared" in HEADER, so that the host compiles
 * the very same lines. With --check nothing is written; the exit status is 1
 * when either file differs from what would be written. Files are written to a
 * temporary name and renamed into place.
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

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* Appends one source file to the array: a #line directive, then a literal per line. */
static int embed_file(buf *arr, const char *path, int *lines)
{
    buf src = {0, 0, 0};
    const char *p, *end;
    if (!slurp(path, &src)) return 0;
    puts_(arr, "    \"#line 1 \\\"");
    puts_(arr, path);
    puts_(arr, "\\\"\\n\",\n");
    ++*lines;
    p = src.p;
    end = src.p + src.n;
    while (p < end) {
        const char *nl = (const char *)memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        literal_line(arr, p, n);
        ++*lines;
        p += n + (nl ? 1 : 0);
    }
    free(src.p);
    return 1;
}

/* hdr with the lines between the marker lines open and close replaced by text, into out. */
static int replace_block(const buf *hdr, const char *path, const char *open, const char *close, const buf *text,
                         buf *out)
{
    char *b = strstr(hdr->p, open), *e = b ? strstr(b, close) : NULL;
    if (!b || !e) {
        fprintf(stderr, "embed_kernels: %s lacks the '%s' ... '%s' block\n", path, open, close);
        return 0;
    }
    b = strchr(b, '\n');
    if (!b || b > e) { fprintf(stderr, "embed_kernels: malformed marker in %s\n", path); return 0; }
    ++b;
    put(out, hdr->p, (size_t)(b - hdr->p));
    put(out, text->p, text->n);
    put(out, e, hdr->n - (size_t)(e - hdr->p));
    return 1;
}

int main(int argc, char **argv)
{
    int check = 0, a = 1, i, pass, ok = 1, lines = 0;
    const char *header, *out_h;
    buf arr = {0, 0, 0}, kh = {0, 0, 0}, hdr = {0, 0, 0}, shared = {0, 0, 0}, mid = {0, 0, 0}, nh = {0, 0, 0};
    char num[64];

    if (a < argc && strcmp(argv[a], "--check") == 0) { check = 1; ++a; }
    if (argc - a < 3) {
        fprintf(stderr, "usage: embed_kernels [--check] gpusvm.h kernels.cl.h kernels/00_shared.h kernels/*.cl\n");
        return 2;
    }
    header = argv[a];
    out_h = argv[a + 1];

    puts_(&arr, "static const char *const gpusvm__kernel_source[] = {\n");
    for (pass = 0; pass < 2; ++pass) /* the shared .h files first, then the .cl files */
        for (i = a + 2; i < argc; ++i) {
            if (ends_with(argv[i], ".h") != (pass == 0)) continue;
            if (!embed_file(&arr, argv[i], &lines)) return 2;
            if (pass == 0 && !slurp(argv[i], &shared)) return 2;
        }
    if (!shared.p) {
        fprintf(stderr, "embed_kernels: no shared header (.h) among the sources\n");
        return 2;
    }
    puts_(&arr, "};\n");
    snprintf(num, sizeof num, "#define GPUSVM__KERNEL_SOURCE_LINES %d\n", lines);
    puts_(&arr, num);

    puts_(&kh, "/* kernels.cl.h: the OpenCL C sources of gpusvm, generated from kernels/ by\n"
               " * tools/embed_kernels.c ('make kernels'). Do not edit. gpusvm.h embeds\n"
               " * the same array; this copy is for tools that want the sources alone. */\n"
               "#ifndef GPUSVM_KERNELS_CL_H\n#define GPUSVM_KERNELS_CL_H\n");
    put(&kh, arr.p, arr.n);
    puts_(&kh, "#endif /* GPUSVM_KERNELS_CL_H */\n");

    if (!slurp(header, &hdr)) return 2;
    if (!replace_block(&hdr, header, "// >>shared", "// <<shared", &shared, &mid) ||
        !replace_block(&mid, header, "// >>kernels", "// <<kernels", &arr, &nh))
        return 2;

    ok = write_if(out_h, &kh, check) && ok;
    ok = write_if(header, &nh, check) && ok;
    free(arr.p); free(kh.p); free(hdr.p); free(shared.p); free(mid.p); free(nh.p);
    return ok ? 0 : 1;
}
