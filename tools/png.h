/* png.h: an RGB image as PNG bytes in memory, for gpusvm-grid and the examples: 8-bit RGB, each
   row filtered (None, Sub or Up: the one of smallest absolute sum, libpng's heuristic), one zlib
   stream compressed with deflate's fixed Huffman codes and LZ77 matches (a 32 KB window, hash
   chains), so no compression library is needed (gpusvm-grid's picture of heart_scale: 1.06 MB of
   pixels in 48 KB; noise comes out 5% larger than its pixels). png_encode returns malloc'd bytes
   and their count (NULL: out of memory); the caller frees. png_text writes on such an image with
   a built-in 5 x 7 font (capitals, digits, a little punctuation; lower case drawn as capitals,
   anything else as '?'). */
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

/* Byte i of row cur under filter f (0 None, 1 Sub, 2 Up; up: the row above, NULL for the first). */
static unsigned char png_filtered(const unsigned char *cur, const unsigned char *up, size_t i, int f)
{
    const unsigned char pred = f == 1 ? (i >= 3 ? cur[i - 3] : 0) : f == 2 ? (up ? up[i] : 0) : 0;
    return (unsigned char)(cur[i] - pred);
}

/* The rows of the w x h image rgb as PNG's filtered stream into raw ((3 w + 1) h bytes): each row
   its filter byte, then the row under the filter (None, Sub or Up) whose bytes, read as signed,
   have the smallest absolute sum. */
static void png_filter_rows(const unsigned char *rgb, int w, int h, unsigned char *raw)
{
    const size_t n = (size_t)w * 3;
    int y, f;
    size_t i;
    for (y = 0; y < h; ++y) {
        const unsigned char *cur = rgb + (size_t)y * n, *up = y ? cur - n : NULL;
        unsigned char *o = raw + (size_t)y * (n + 1);
        unsigned long cost[3] = {0, 0, 0};
        int best = 0;
        for (i = 0; i < n; ++i)
            for (f = 0; f < 3; ++f) {
                const unsigned char v = png_filtered(cur, up, i, f);
                cost[f] += v < 128 ? v : 256u - v;
            }
        for (f = 1; f < 3; ++f)
            if (cost[f] < cost[best]) best = f;
        o[0] = (unsigned char)best;
        for (i = 0; i < n; ++i) o[1 + i] = png_filtered(cur, up, i, best);
    }
}

/* A bit stream, least significant bit first (deflate's order). */
typedef struct png_bits {
    unsigned char *o;
    size_t at;
    uint32_t acc;
    int n;
} png_bits;

static void png_put(png_bits *b, uint32_t v, int n)
{
    b->acc |= v << b->n;
    b->n += n;
    while (b->n >= 8) {
        b->o[b->at++] = (unsigned char)b->acc;
        b->acc >>= 8;
        b->n -= 8;
    }
}

/* A Huffman code of n bits, written from its first (most significant) bit. */
static void png_put_code(png_bits *b, uint32_t code, int n)
{
    uint32_t r = 0;
    int i;
    for (i = 0; i < n; ++i) r |= ((code >> i) & 1u) << (n - 1 - i);
    png_put(b, r, n);
}

/* Literal or length symbol s (0..287) in the fixed code (RFC 1951, 3.2.6). */
static void png_put_lit(png_bits *b, int s)
{
    if (s < 144) png_put_code(b, 0x30u + (uint32_t)s, 8);
    else if (s < 256) png_put_code(b, 0x190u + (uint32_t)(s - 144), 9);
    else if (s < 280) png_put_code(b, (uint32_t)(s - 256), 7);
    else png_put_code(b, 0xC0u + (uint32_t)(s - 280), 8);
}

/* A match of len (3..258) bytes at distance dist (1..32768): its length and distance symbols with
   their extra bits. */
static void png_put_match(png_bits *b, int len, int dist)
{
    static const unsigned short lbase[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27,
                                             31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
    static const unsigned char lext[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    static const unsigned short dbase[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385,
                                             513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
    static const unsigned char dext[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
    int l = 28, d = 29;
    while (lbase[l] > len) --l;
    while (dbase[d] > dist) --d;
    png_put_lit(b, 257 + l);
    png_put(b, (uint32_t)(len - lbase[l]), lext[l]);
    png_put_code(b, (uint32_t)d, 5);
    png_put(b, (uint32_t)(dist - dbase[d]), dext[d]);
}

#define PNG_WINDOW 32768
#define PNG_HASH (1 << 15)
#define PNG_CHAIN 64 /* candidates tried a position */

/* The hash of the three bytes at p. */
static unsigned png_hash(const unsigned char *p)
{
    return ((unsigned)p[0] << 10 ^ (unsigned)p[1] << 5 ^ p[2]) & (PNG_HASH - 1);
}

/* raw[0..n) as one final deflate block of the fixed codes into b: at each position the longest
   earlier match within the window among the last PNG_CHAIN sharing its first three bytes (at
   least 3 bytes, at most 258), else a literal. head / prev: PNG_HASH and PNG_WINDOW positions
   (-1: none). */
static void png_deflate(const unsigned char *raw, size_t n, png_bits *b, int64_t *head, int64_t *prev)
{
    size_t i = 0;
    int k;
    for (k = 0; k < PNG_HASH; ++k) head[k] = -1;
    png_put(b, 1, 1); /* BFINAL */
    png_put(b, 1, 2); /* BTYPE 01: the fixed codes */
    while (i < n) {
        int best = 0, dist = 0, len, chain = PNG_CHAIN;
        if (i + 3 <= n) {
            int64_t c = head[png_hash(raw + i)];
            while (c >= 0 && i - (size_t)c <= PNG_WINDOW && chain-- > 0) {
                const size_t most = n - i < 258 ? n - i : 258;
                for (len = 0; (size_t)len < most && raw[(size_t)c + (size_t)len] == raw[i + (size_t)len]; ++len) {}
                if (len > best) {
                    best = len;
                    dist = (int)(i - (size_t)c);
                    if ((size_t)len == most) break;
                }
                c = prev[(size_t)c % PNG_WINDOW];
            }
        }
        if (best < 3) best = 1;
        for (k = 0; k < best; ++k, ++i) /* every position passed joins its chain */
            if (i + 3 <= n) {
                const unsigned hsh = png_hash(raw + i);
                prev[i % PNG_WINDOW] = head[hsh];
                head[hsh] = (int64_t)i;
            }
        if (best == 1) png_put_lit(b, raw[i - 1]);
        else png_put_match(b, best, dist);
    }
    png_put_lit(b, 256); /* end of block */
    if (b->n > 0) b->o[b->at++] = (unsigned char)b->acc; /* the last bits, to a whole byte */
    b->acc = 0;
    b->n = 0;
}

/* The w x h image rgb (rows top first, 3 bytes a pixel). */
static unsigned char *png_encode(const unsigned char *rgb, int w, int h, size_t *size)
{
    const size_t raw_n = ((size_t)w * 3 + 1) * (size_t)h, z_n = 2 + raw_n + raw_n / 8 + 64;
    unsigned char *raw = (unsigned char *)malloc(raw_n ? raw_n : 1), *z = (unsigned char *)malloc(z_n);
    unsigned char *out = (unsigned char *)malloc(z_n + 8 + 25 + 12 + 12), *o, ihdr[13];
    int64_t *head = (int64_t *)malloc(PNG_HASH * sizeof(int64_t)), *prev = (int64_t *)malloc(PNG_WINDOW * sizeof(int64_t));
    uint32_t s1 = 1, s2 = 0;
    png_bits b;
    size_t i;
    if (!raw || !z || !out || !head || !prev) {
        free(raw), free(z), free(out), free(head), free(prev);
        return NULL;
    }
    png_filter_rows(rgb, w, h, raw);
    for (i = 0; i < raw_n; ++i) { /* Adler-32 of the filtered rows */
        s1 = (s1 + raw[i]) % 65521u;
        s2 = (s2 + s1) % 65521u;
    }
    z[0] = 0x78; /* zlib: deflate, 32K window */
    z[1] = 0x01;
    b.o = z;
    b.at = 2;
    b.acc = 0;
    b.n = 0;
    png_deflate(raw, raw_n, &b, head, prev);
    png_be32(z + b.at, (s2 << 16) | s1);
    memcpy(out, "\x89PNG\r\n\x1a\n", 8);
    png_be32(ihdr, (uint32_t)w);
    png_be32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8;  /* bit depth */
    ihdr[9] = 2;  /* RGB */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering */
    ihdr[12] = 0; /* no interlace */
    o = png_chunk(out + 8, "IHDR", ihdr, 13);
    o = png_chunk(o, "IDAT", z, b.at + 4);
    o = png_chunk(o, "IEND", NULL, 0);
    free(raw), free(z), free(head), free(prev);
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
