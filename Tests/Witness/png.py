"""PNG decoding for the picture witnesses, through Pillow (its C decoder: a picture of 800 x 600
pixels in a few hundredths of a second, where unfiltering it row by row in Python took seconds)."""
import io

import numpy
from PIL import Image


def decode_png(data):
    """8-bit RGB or RGBA PNG -> numpy array (h, w, 3) of int32 (the alpha channel dropped)."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG", f"not a PNG but {image.format}"
    assert image.mode in ("RGB", "RGBA"), f"unsupported PNG mode {image.mode}"
    return numpy.asarray(image.convert("RGB"), dtype=numpy.int32)


def hex_colour(text):
    """`#rrggbb` -> numpy array [r, g, b]."""
    return numpy.array([int(text[i:i + 2], 16) for i in (1, 3, 5)], dtype=numpy.int32)
