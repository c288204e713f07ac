#!/usr/bin/env python3
"""Counts the pixels that differ between two pictures of the same size (a map drawn with a
layer and without it, say), in the whole picture and in named boxes.

  picture_diff.py A.png B.png [--points FILE] [NAME=x0,y0,x1,y1 ...]

A pixel differs when the sum of |dr|+|dg|+|db| is more than 12 (rendering noise is less).
A box holds x0 <= x < x1, y0 <= y < y1 (clipped to the picture). FILE names lists of places,
{"NAME": {"radius": R, "points": [[x, y], ...]}, ...}: for each, how many of its points are in
the picture, how many have a differing pixel within R, and how many are brighter in A than in
B (sum of the channels, by more than 12); "away" counts the differing pixels farther than R
from every point of every list. Prints JSON: {"all": N, "pixels": N, "NAME": N or
{"points", "near", "brighter"}, "away": N, ...}.
"""
import json
import sys

import numpy

from png import decode_png


def main():
    with open(sys.argv[1], "rb") as f:
        a = decode_png(f.read())
    with open(sys.argv[2], "rb") as f:
        b = decode_png(f.read())
    assert a.shape == b.shape, f"{a.shape} against {b.shape}"
    differs = numpy.abs(a - b).sum(axis=2) > 12
    report = {"all": int(differs.sum()), "pixels": int(differs.size)}
    args = sys.argv[3:]
    if args and args[0] == "--points":
        with open(args[1]) as f:
            places = json.load(f)
        args = args[2:]
        height, width = differs.shape
        rows, columns = numpy.mgrid[0:height, 0:width]
        covered = numpy.zeros(differs.shape, dtype=bool)
        brightness = a.sum(axis=2) - b.sum(axis=2)
        for name, place in places.items():
            radius = place["radius"]
            inside = near = brighter = 0
            for x, y in place["points"]:
                if not (0 <= x < width and 0 <= y < height):
                    continue
                inside += 1
                y0, y1 = max(0, int(y - radius)), min(height, int(y + radius) + 1)
                x0, x1 = max(0, int(x - radius)), min(width, int(x + radius) + 1)
                disc = (rows[y0:y1, x0:x1] - y) ** 2 + (columns[y0:y1, x0:x1] - x) ** 2 <= radius * radius
                covered[y0:y1, x0:x1] |= disc
                near += int((differs[y0:y1, x0:x1] & disc).any())
                brighter += int(brightness[int(y), int(x)] > 12)
            report[name] = {"points": inside, "near": near, "brighter": brighter}
        report["away"] = int((differs & ~covered).sum())
    for spec in args:
        name, box = spec.split("=", 1)
        x0, y0, x1, y1 = (int(round(float(v))) for v in box.split(","))
        height, width = differs.shape
        report[name] = int(differs[max(0, y0):min(height, y1), max(0, x0):min(width, x1)].sum())
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
