/* png.h: an RGB image as PNG bytes in memory, for gpusvm-grid and the examples: 8-bit RGB, one
   zlib stream of stored (uncompressed) deflate blocks, so no compression library is needed.
   png_encode returns malloc'd bytes and their count (NULL: out of memory); the caller frees.
   png_text writes on such an image with a built-in 5 x 7 font (capitals, digits, a little
   punctuation; lower case drawn as capitals, anything else as '?'). */
#ifndef GPUSVM_PNG_H
#define GPUSVM_PNG_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint32_t png_crc(const unsigned char *p, size_t n, uint32_t c)
{
    size_t i;
    int k;
    c = ~c;
    for (i = 0; i < n; ++i) {
        c ^= p[i];
        for (k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

static unsigned char *png_be32(unsigned char *o, uint32_t v)
{
    o[0] = (unsigned char)(v >> 24);
    o[1] = (unsigned char)(v >> 16);
    o[2] = (unsigned char)(v >> 8);
    o[3] = (unsigned char)v;
    return o + 4;
}

/* One chunk at o: length, type, data, the CRC of type and data; the end of it. */
static unsigned char *png_chunk(unsigned char *o, const char *type, const unsigned char *data, size_t n)
{
    unsigned char *t = o + 4;
    o = png_be32(o, (uint32_t)n);
    memcpy(o, type, 4);
    if (n) memcpy(o + 4, data, n);
    return png_be32(o + 4 + n, png_crc(t, n + 4, 0));
}

/* The w x h image rgb (rows top first, 3 bytes a pixel). */
static unsigned char *png_encode(const unsigned char *rgb, int w, int h, size_t *size)
{
    const size_t row = (size_t)w * 3 + 1, raw_n = row * (size_t)h;
    const size_t z_n = 2 + (raw_n + 65534) / 65535 * 5 + raw_n + 4;
    unsigned char *z = (unsigned char *)malloc(z_n), *out = (unsigned char *)malloc(z_n + 8 + 25 + 12 + 12), *o;
    unsigned char ihdr[13];
    uint32_t s1 = 1, s2 = 0;
    size_t i, at = 0, left = 0, in_row;
    if (!z || !out) {
        free(z);
        free(out);
        return NULL;
    }
    z[at++] = 0x78; /* zlib: deflate, 32K window */
    z[at++] = 0x01;
    for (i = 0; i < raw_n; ++i) { /* the filtered rows (filter 0) in stored blocks, the Adler-32 beside */
        unsigned char byte;
        if (left == 0) {
            left = raw_n - i < 65535 ? raw_n - i : 65535;
            z[at++] = i + left == raw_n ? 1 : 0; /* BFINAL; BTYPE 00 */
            z[at++] = (unsigned char)(left & 255);
            z[at++] = (unsigned char)(left >> 8);
            z[at++] = (unsigned char)(~left & 255);
            z[at++] = (unsigned char)((~left >> 8) & 255);
        }
        in_row = i % row;
        byte = in_row == 0 ? 0 : rgb[(i / row) * (size_t)w * 3 + in_row - 1];
        z[at++] = byte;
        --left;
        s1 = (s1 + byte) % 65521u;
        s2 = (s2 + s1) % 65521u;
    }
    png_be32(z + at, (s2 << 16) | s1);
    at += 4;
    memcpy(out, "\x89PNG\r\n\x1a\n", 8);
    png_be32(ihdr, (uint32_t)w);
    png_be32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8;  /* bit depth */
    ihdr[9] = 2;  /* RGB */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering */
    ihdr[12] = 0; /* no interlace */
    o = png_chunk(out + 8, "IHDR", ihdr, 13);
    o = png_chunk(o, "IDAT", z, at);
    o = png_chunk(o, "IEND", NULL, 0);
    free(z);
    *size = (size_t)(o - out);
    return out;
}

/* The font: glyph k (of font_chars) row r's five pixels in bits 4..0, left to right. */
static const char font_chars[] = "%()+,-./0123456789:=?ABCDEFGHIJKLMNOPQRSTUVWXYZ_";
static const unsigned char font_rows[][7] = {
    {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03}, {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}, {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}, {0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00},
    {0x00, 0x00, 0x00, 0x00, 0x0C, 0x04, 0x08}, {0x00, 0x00, 0x00, 0x0E, 0x00, 0x00, 0x00}, {0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C}, {0x01, 0x02, 0x02, 0x04, 0x08, 0x08, 0x10},
    {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}, {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}, {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}, {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E},
    {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}, {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}, {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}, {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
    {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}, {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}, {0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00}, {0x00, 0x00, 0x1F, 0x00, 0x1F, 0x00, 0x00},
    {0x0E, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04}, {0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}, {0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E}, {0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E},
    {0x1E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E}, {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F}, {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10}, {0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F},
    {0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}, {0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E}, {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C}, {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11},
    {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F}, {0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11}, {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11}, {0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E},
    {0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10}, {0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D}, {0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11}, {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E},
    {0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}, {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}, {0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04}, {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A},
    {0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11}, {0x11, 0x11, 0x0A, 0x04, 0x04, 0x04, 0x04}, {0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F}, {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1F},
};

#define PNG_GLYPH_W 6 /* advance of one character at scale 1: 5 pixels and a gap */
#define PNG_GLYPH_H 7

static inline int png_text_width(const char *s, int scale) { return (int)strlen(s) * PNG_GLYPH_W * scale - scale; }

/* s at (x, y) (its top left) in the w x h image rgb, each font pixel a scale x scale square of
   colour c (3 bytes); what falls outside the image is left out. */
static inline void png_text(unsigned char *rgb, int w, int h, int x, int y, int scale, const char *s,
                            const unsigned char *c)
{
    for (; *s; ++s, x += PNG_GLYPH_W * scale) {
        const char ch = (char)(*s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s);
        const char *at = strchr(font_chars, ch);
        const unsigned char *g = font_rows[(at ? at : strchr(font_chars, '?')) - font_chars];
        int r, b, dy, dx;
        if (ch == ' ') continue;
        for (r = 0; r < PNG_GLYPH_H; ++r)
            for (b = 0; b < 5; ++b)
                if (g[r] >> (4 - b) & 1)
                    for (dy = 0; dy < scale; ++dy)
                        for (dx = 0; dx < scale; ++dx) {
                            const int px = x + b * scale + dx, py = y + r * scale + dy;
                            if (px >= 0 && px < w && py >= 0 && py < h) memcpy(rgb + ((size_t)py * w + px) * 3, c, 3);
                        }
    }
}
#endif
