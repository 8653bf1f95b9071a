"""png_check.py FILE WIDTH HEIGHT: FILE is a PNG of that size whose chunks' CRCs hold and whose
zlib stream inflates to the rows an 8-bit RGB image of that size has (filter byte + 3 bytes a
pixel). Prints what is wrong and exits 1, else exits 0 silently."""
import struct
import sys
import zlib


def check(path, w, h):
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
    if len(zlib.decompress(idat)) != h * (1 + 3 * w):
        return "pixel data of the wrong size"
    return None


if __name__ == "__main__":
    why = check(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
    if why:
        print("%s: %s" % (sys.argv[1], why))
        sys.exit(1)
