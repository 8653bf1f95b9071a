"""png_check.py FILE WIDTH HEIGHT [RGB]: FILE is a PNG of that size whose chunks' CRCs hold and
whose zlib stream inflates to the rows an 8-bit RGB image of that size has (filter byte + 3 bytes
a pixel); with RGB, a file of the pixels as they should be, its rows unfiltered give them byte for
byte. Prints what is wrong and exits 1, else exits 0 silently."""
import struct
import sys
import zlib


def unfilter(rows, w, h):
    """The pixels of an 8-bit RGB image's inflated rows (filters None, Sub, Up, Average, Paeth)."""
    n, out, prev = 3 * w, bytearray(), bytearray(3 * w)
    for y in range(h):
        f, cur = rows[y * (n + 1)], bytearray(rows[y * (n + 1) + 1:(y + 1) * (n + 1)])
        for i in range(n):
            a = cur[i - 3] if i >= 3 else 0
            b, c = prev[i], prev[i - 3] if i >= 3 else 0
            if f == 1:
                cur[i] = (cur[i] + a) & 255
            elif f == 2:
                cur[i] = (cur[i] + b) & 255
            elif f == 3:
                cur[i] = (cur[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            elif f != 0:
                raise ValueError("row %d: filter %d" % (y, f))
        out += cur
        prev = cur
    return bytes(out)


def check(path, w, h, rgb=None):
    d = open(path, "rb").read()
    if d[:8] != b"\x89PNG\r\n\x1a\n":
        return "no PNG signature"
    at, idat, dims = 8, b"", None
    while at < len(d):
        n, = struct.unpack(">I", d[at:at + 4])
        t, body = d[at + 4:at + 8], d[at + 8:at + 8 + n]
        if zlib.crc32(t + body) & 0xFFFFFFFF != struct.unpack(">I", d[at + 8 + n:at + 12 + n])[0]:
            return "chunk %r: bad CRC" % t
        if t == b"IHDR":
            dims = struct.unpack(">II", body[:8])
        elif t == b"IDAT":
            idat += body
        at += 12 + n
    if dims != (w, h):
        return "%s pixels, wanted %s" % (dims, (w, h))
    try:
        rows = zlib.decompress(idat)
    except zlib.error as e:
        return "the pixel data does not inflate: %s" % e
    if len(rows) != h * (1 + 3 * w):
        return "pixel data of the wrong size"
    if rgb is not None:
        try:
            got = unfilter(rows, w, h)
        except ValueError as e:
            return str(e)
        want = open(rgb, "rb").read()
        if got != want:
            at = next(i for i in range(min(len(got), len(want))) if got[i] != want[i]) if len(got) == len(want) else -1
            return "pixels differ from %s (first at byte %d)" % (rgb, at)
    return None


if __name__ == "__main__":
    why = check(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else None)
    if why:
        print("%s: %s" % (sys.argv[1], why))
        sys.exit(1)
