#!/usr/bin/env python3
"""Counts pixels of given colours in a PNG (a screenshot of the preview, say).

  picture_witness.py FILE NAME=#rrggbb[,#rrggbb...][@x0,y0,x1,y1] ...

A pixel counts for NAME when it is within 24 (sum of |dr|+|dg|+|db|) of one of its
colours (and, with a box, when x0 <= x < x1 and y0 <= y < y1). Prints JSON:
{"NAME": N, ..., "pixels": N}.
"""
import json
import sys

import numpy

from png import decode_png, hex_colour


def main():
    with open(sys.argv[1], "rb") as f:
        pixels = decode_png(f.read())
    report = {"pixels": int(pixels.shape[0] * pixels.shape[1])}
    for spec in sys.argv[2:]:
        name, colours = spec.split("=", 1)
        colours, _, box = colours.partition("@")
        hit = numpy.zeros(pixels.shape[:2], dtype=bool)
        for colour in colours.split(","):
            hit |= numpy.abs(pixels - hex_colour(colour)).sum(axis=2) <= 24
        if box:
            x0, y0, x1, y1 = (max(0, int(round(float(v)))) for v in box.split(","))
            hit = hit[y0:y1, x0:x1]
        report[name] = int(hit.sum())
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
