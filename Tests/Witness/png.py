"""PNG decoding for the picture witnesses (numpy only: no imaging library in the venv)."""
import struct
import zlib

import numpy


def decode_png(data):
    """8-bit RGB or RGBA, non-interlaced PNG -> numpy array (h, w, channels)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "unsupported PNG"
            channels = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    out = numpy.zeros((height, stride), dtype=numpy.int32)
    previous = numpy.zeros(stride, dtype=numpy.int32)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = numpy.frombuffer(raw, dtype=numpy.uint8, count=stride, offset=y * (stride + 1) + 1).astype(numpy.int32)
        if kind == 0:
            row = line
        elif kind == 2:
            row = (line + previous) & 0xFF
        else:
            row = numpy.zeros(stride, dtype=numpy.int32)
            for x in range(stride):
                left = row[x - channels] if x >= channels else 0
                up = previous[x]
                upleft = previous[x - channels] if x >= channels else 0
                if kind == 1:
                    predictor = left
                elif kind == 3:
                    predictor = (left + up) // 2
                else:
                    p = left + up - upleft
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - upleft)
                    predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else upleft)
                row[x] = (line[x] + predictor) & 0xFF
        out[y] = row
        previous = row
    return out.reshape(height, width, channels)[:, :, :3]


def hex_colour(text):
    """`#rrggbb` -> numpy array [r, g, b]."""
    return numpy.array([int(text[i:i + 2], 16) for i in (1, 3, 5)], dtype=numpy.int32)
