#!/usr/bin/env python3
"""Renders a bundle with its own style.json in MapLibre Native (mapli) and counts pixels.

  render_style.py BUNDLE_DIR OUT_DIR VIEW...   each VIEW is name:lon:lat:zoom

The style's vector source is pointed at BUNDLE_DIR/quakes.pmtiles (absolute file URL);
nothing else in the style changes. For each view it writes OUT_DIR/<name>.png (800x600)
and reports how many pixels have the colour of a quake (any class of the legend kept in
the style's metadata, as MapLibre blends it over the background) and how many the
background's. Prints JSON: {"<name>": {"quake": N, "background": N, "pixels": N}}.
"""
import json
import os
import struct
import sys
import zlib

os.environ.setdefault("EGL_PLATFORM", "surfaceless")
import numpy  # noqa: E402
import mapli  # noqa: E402

WIDTH, HEIGHT = 800, 600


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
    return numpy.array([int(text[i:i + 2], 16) for i in (1, 3, 5)], dtype=numpy.int32)


def main():
    bundle, out_dir, views = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(os.path.join(bundle, "style.json")) as f:
        style = json.load(f)
    style["sources"]["quakes"]["url"] = "pmtiles://file://" + os.path.abspath(os.path.join(bundle, "quakes.pmtiles"))
    background = hex_colour(next(l for l in style["layers"] if l["type"] == "background")["paint"]["background-color"])
    legend = [hex_colour(b["colour"]) for b in style["metadata"]["quake-bake:legend"]]
    quake_layer = next(l for l in style["layers"] if l["id"] == "quakes")
    opacity = quake_layer["paint"]["circle-opacity"]
    blended = [numpy.rint(c * opacity + background * (1 - opacity)).astype(numpy.int32) for c in legend]
    pool = mapli.RenderPool(workers=1)
    pool.register_style("bundle", json=style)
    report = {}
    for view in views:
        name, lon, lat, zoom = view.split(":")
        png = pool.render("bundle", lon=float(lon), lat=float(lat), zoom=float(zoom), width=WIDTH, height=HEIGHT)
        with open(os.path.join(out_dir, name + ".png"), "wb") as f:
            f.write(png)
        pixels = decode_png(png)
        quake = numpy.zeros(pixels.shape[:2], dtype=bool)
        for colour in blended + legend:
            quake |= numpy.abs(pixels - colour).sum(axis=2) <= 24
        plain = numpy.abs(pixels - background).sum(axis=2) <= 6
        report[name] = {"quake": int(quake.sum()), "background": int(plain.sum()), "pixels": int(pixels.shape[0] * pixels.shape[1])}
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
