#!/usr/bin/env python3
"""Compares an app's local bundle with the export's own version directory, as a person checking
the copy would: every tile and metadata row of quakes.mbtiles, every row, R-tree entry and info
row of quakes.sqlite (delta_witness.compare: exact, blobs and values compared with IS), and
every other file of the copy byte for byte.

  bundle_compare.py COPY EXPORT

Prints JSON: the mismatch counts (tiles, metadata, rows, rtree, info: all 0 when equal) and
their totals, the copy's other files whose bytes differ ("differing"), and the export's files
(deltas aside) that the copy does not have ("absent").
"""
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from delta_witness import compare  # noqa: E402

SYNCED = {"quakes.mbtiles", "quakes.sqlite"}


def files(root):
    found = set()
    for directory, _, names in os.walk(root):
        for name in names:
            found.add(os.path.relpath(os.path.join(directory, name), root))
    return found


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    copy, export = sys.argv[1], sys.argv[2]
    report = compare(copy, export)
    mine = {f for f in files(copy) if not os.path.basename(f).startswith(".")}
    theirs = {f for f in files(export) if not f.startswith("deltas/")}
    report["differing"] = sorted(f for f in mine - SYNCED
                                 if f not in theirs or digest(os.path.join(copy, f)) != digest(os.path.join(export, f)))
    report["absent"] = sorted(theirs - mine)
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
