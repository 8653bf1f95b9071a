/* png_roundtrip DIR: writes images of the kinds gpusvm-grid and the examples draw, and some that
 * compress badly, each as DIR/NAME.png (tools/png.h) and DIR/NAME.rgb (its pixels as they are),
 * and lists "NAME WIDTH HEIGHT" on stdout; tests/scripts/png_check.py then decodes each PNG and compares
 * its pixels with the .rgb. */
#include "../../tools/png.h"
#include <stdio.h>

/* bytes [0, n) of p as DIR/NAME.EXT; whether all of them were written */
static int put(const char *dir, const char *name, const char *ext, const unsigned char *p, size_t n)
{
    char path[1024];
    FILE *f;
    int ok;
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    if (!(f = fopen(path, "wb"))) return 0;
    ok = fwrite(p, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

static int save(const char *dir, const char *name, const unsigned char *rgb, int w, int h)
{
    size_t size = 0;
    unsigned char *png = png_encode(rgb, w, h, &size);
    const int ok = png && put(dir, name, "png", png, size) && put(dir, name, "rgb", rgb, (size_t)w * (size_t)h * 3);
    free(png);
    if (ok) printf("%s %d %d\n", name, w, h);
    return ok;
}

int main(int argc, char **argv)
{
    enum { W = 730, H = 496 };
    static unsigned char rgb[W * H * 3];
    static const unsigned char black[3] = {0, 0, 0};
    unsigned long r = 12345;
    int x, y, k, ok = argc == 2;
    /* a heat map of blocks with text over it, as gpusvm-grid draws */
    for (y = 0; y < H; ++y)
        for (x = 0; x < W; ++x)
            for (k = 0; k < 3; ++k) rgb[(y * W + x) * 3 + k] = (unsigned char)((x / 97 * 40 + y / 61 * 25 + k * 70) & 255);
    png_text(rgb, W, H, 20, 20, 2, "LOG2(C) 0.125 BEST 84.0741%", black);
    ok = ok && save(argv[1], "blocks", rgb, W, H);
    /* gradients (Sub and Up filters), then noise (nothing to match: literals throughout) */
    for (y = 0; y < H; ++y)
        for (x = 0; x < W; ++x)
            for (k = 0; k < 3; ++k) rgb[(y * W + x) * 3 + k] = (unsigned char)(x * (k + 1) + y * (3 - k));
    ok = ok && save(argv[1], "gradient", rgb, W, H);
    for (k = 0; k < W * H * 3; ++k) {
        r = r * 1103515245ul + 12345ul;
        rgb[k] = (unsigned char)(r >> 16);
    }
    ok = ok && save(argv[1], "noise", rgb, W, H);
    /* long runs past 258 bytes and the 32 KB window; one pixel; one row */
    memset(rgb, 200, sizeof rgb);
    ok = ok && save(argv[1], "flat", rgb, W, H) && save(argv[1], "pixel", rgb, 1, 1) && save(argv[1], "row", rgb + 7, W, 1);
    return ok ? 0 : 1;
}
