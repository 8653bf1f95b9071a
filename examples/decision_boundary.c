/* examples/decision_boundary.c: the decision boundary of an RBF SVM on 2-D data, as a picture.

   Two interleaved half-moons (200 noisy points), a C-SVC with an RBF kernel, then one
   gpusvm_predict call for the decision value at every pixel of a 320 x 240 view: orange where
   the model says +1, blue where it says -1, darker far from the boundary; the boundary (value 0)
   and the margins (+-1) are drawn as lines, the training points as dots, the support vectors
   ringed. Writes decision_boundary.png (or the path given) with the small PNG writer the tools use:

       cc -O2 -I.. decision_boundary.c -ldl -lm && ./a.out            (from examples/)
       cc -O2 -I. examples/decision_boundary.c -ldl -lm && ./a.out    (from the repository) */
#define GPUSVM_IMPLEMENTATION
#include "gpusvm.h" /* build with -I pointing at gpusvm.h's folder */
#include "tools/png.h"
#include <math.h>
#include <stdio.h>

#define NPTS 200
#define W 320
#define H 240
static const double X0 = -1.5, X1 = 2.5, Y0 = -1.0, Y1 = 2.0; /* the view: x left to right, y bottom to top */

static double urand(unsigned *s) /* a fixed sequence in [0, 1) */
{
    *s = *s * 1664525u + 1013904223u;
    return (*s >> 8) / 16777216.0;
}

static void pixel_of(double x, double y, int *px, int *py)
{
    *px = (int)((x - X0) / (X1 - X0) * W);
    *py = (int)((Y1 - y) / (Y1 - Y0) * H);
}

static void dot(unsigned char *rgb, int cx, int cy, int r, int ring, const unsigned char *c)
{
    int dx, dy;
    for (dy = -r; dy <= r; ++dy)
        for (dx = -r; dx <= r; ++dx) {
            const int x = cx + dx, y = cy + dy, d2 = dx * dx + dy * dy;
            if (x < 0 || y < 0 || x >= W || y >= H || d2 > r * r || (ring && d2 < (r - 1) * (r - 1))) continue;
            memcpy(rgb + ((size_t)y * W + x) * 3, c, 3);
        }
}

int main(int argc, char **argv)
{
    static float pts[NPTS * 2], view[W * H * 2];
    static double y[NPTS], dec[W * H];
    static unsigned char rgb[W * H * 3];
    const unsigned char white[3] = {255, 255, 255}, black[3] = {0, 0, 0}, ring[3] = {255, 255, 0};
    const char *path = argc > 1 ? argv[1] : "decision_boundary.png";
    gpusvm_matrix m = {0}, v = {0};
    gpusvm_params p = {0};
    gpusvm_context *ctx;
    gpusvm_model *model;
    unsigned s = 12345u;
    unsigned char *png;
    size_t size, i, k;
    int px, py;
    for (i = 0; i < NPTS; ++i) { /* moon +1 on top, moon -1 below and shifted */
        const double t = 3.14159265358979 * urand(&s), pos = i % 2 == 0;
        pts[2 * i] = (float)((pos ? cos(t) : 1.0 - cos(t)) + 0.15 * (urand(&s) - 0.5) * 2);
        pts[2 * i + 1] = (float)((pos ? sin(t) : 0.5 - sin(t)) + 0.15 * (urand(&s) - 0.5) * 2);
        y[i] = pos ? 1 : -1;
    }
    for (py = 0; py < H; ++py)
        for (px = 0; px < W; ++px) {
            view[2 * (py * W + px)] = (float)(X0 + (px + 0.5) / W * (X1 - X0));
            view[2 * (py * W + px) + 1] = (float)(Y1 - (py + 0.5) / H * (Y1 - Y0));
        }
    m.layout = v.layout = GPUSVM_LAYOUT_DENSE;
    m.rows = NPTS, m.cols = 2, m.values = pts;
    v.rows = W * H, v.cols = 2, v.values = view;
    p.kernel_type = GPUSVM_KERNEL_RBF;
    p.C = 10;
    p.gamma = 2;
    if (gpusvm_context_create(NULL, &ctx) != GPUSVM_OK) return 1;
    if (gpusvm_train(ctx, &m, y, &p, &model) != GPUSVM_OK || gpusvm_predict(ctx, model, &v, NULL, dec) != GPUSVM_OK) {
        fprintf(stderr, "%s\n", gpusvm_context_error(ctx));
        return 1;
    }
    if (model->label[0] != 1) /* decision values are for label[0]'s side: make +1 positive */
        for (i = 0; i < (size_t)W * H; ++i) dec[i] = -dec[i];
    for (i = 0; i < (size_t)W * H; ++i) {
        const double d = dec[i], a = fabs(d) > 2 ? 1 : fabs(d) / 2;
        /* a line where -1, 0 or +1 lies between this pixel's value and its right or lower neighbour's */
        const double r = (i + 1) % W ? dec[i + 1] : d, u = i + W < (size_t)W * H ? dec[i + W] : d;
        const int near = fabs(d) < 1.5 && (floor(d) != floor(r) || floor(d) != floor(u));
        rgb[3 * i + 0] = (unsigned char)(near ? 30 : d > 0 ? 250 - 70 * a : 170 - 120 * a);
        rgb[3 * i + 1] = (unsigned char)(near ? 30 : d > 0 ? 190 - 90 * a : 200 - 90 * a);
        rgb[3 * i + 2] = (unsigned char)(near ? 30 : d > 0 ? 120 - 90 * a : 250 - 40 * a);
    }
    for (i = 0; i < NPTS; ++i) {
        pixel_of(pts[2 * i], pts[2 * i + 1], &px, &py);
        dot(rgb, px, py, 2, 0, y[i] > 0 ? white : black);
    }
    if (model->sv_indices) /* the support vectors: their rows in the training data */
        for (k = 0; k < model->total_sv; ++k) {
            i = model->sv_indices[k];
            pixel_of(pts[2 * i], pts[2 * i + 1], &px, &py);
            dot(rgb, px, py, 5, 1, ring);
        }
    png = png_encode(rgb, W, H, &size);
    if (!png || gpusvm_write_file(ctx, path, png, size) != GPUSVM_OK) return 1;
    printf("device: %s; %lu support vectors of %d points; wrote %s (%dx%d)\n", gpusvm_context_device_name(ctx),
           (unsigned long)model->total_sv, NPTS, path, W, H);
    free(png);
    gpusvm_model_free(model);
    gpusvm_context_destroy(ctx);
    return 0;
}
