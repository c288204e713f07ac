#!/usr/bin/env python3
"""Independent witness for quake-bake bundles (used by BundlesTests).

Reads a bundle directory with third-party readers only -- the `mapbox-vector-tile`
package for MVT, the `pmtiles` package for PMTiles, Python's sqlite3 for MBTiles --
and prints one JSON document on stdout:

  {"mbtiles": {"metadata": {...}, "application_id": n,
               "tiles": [{"z", "x", "y", "tms_row", "sha256", "bytes",
                          "layers": {name: {"version", "extent",
                                            "features": [{"id", "type", "x", "y", "properties"}]}}}]},
                                            (a MultiPoint feature, as the heat layer's, one entry per point)
   "pmtiles": {"header": {...}, "metadata": {...},
               "tiles": [{"z", "x", "y", "sha256"}],   # from pmtiles.reader.all_tiles
               "get_mismatches": n}}                   # Reader.get(z, x, y) != MBTiles blob

Tile coordinates are decoded with y pointing down (raw tile units), and y in
"tiles" is the XYZ row (converted from the MBTiles TMS row).
usage: read_bundle.py BUNDLE_DIR
"""
import gzip
import hashlib
import json
import sqlite3
import sys

import mapbox_vector_tile
from pmtiles.reader import MmapSource, Reader, all_tiles


def decode(blob):
    layers = mapbox_vector_tile.decode(gzip.decompress(blob), default_options={"y_coord_down": True})
    out = {}
    for name, layer in layers.items():
        features = []
        for feature in layer["features"]:
            geometry = feature["geometry"]
            if geometry["type"] == "MultiPoint":  # the heat layer: one feature per count
                for x, y in geometry["coordinates"]:
                    features.append({"id": feature.get("id"), "type": geometry["type"], "x": x, "y": y, "properties": feature["properties"]})
                continue
            assert geometry["type"] == "Point", geometry
            x, y = geometry["coordinates"]
            features.append({"id": feature.get("id"), "type": geometry["type"], "x": x, "y": y, "properties": feature["properties"]})
        out[name] = {"version": layer["version"], "extent": layer["extent"], "features": features}
    return out


def main(bundle):
    db = sqlite3.connect(f"file:{bundle}/quakes.mbtiles?mode=ro", uri=True)
    metadata = dict(db.execute("SELECT name, value FROM metadata"))
    application_id = db.execute("PRAGMA application_id").fetchone()[0]
    tiles = []
    blobs = {}
    for z, x, row, blob in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY 1, 2, 3"):
        y = (1 << z) - 1 - row
        blobs[(z, x, y)] = bytes(blob)
        tiles.append({"z": z, "x": x, "y": y, "tms_row": row, "sha256": hashlib.sha256(blob).hexdigest(),
                      "bytes": len(blob), "layers": decode(blob)})

    with open(f"{bundle}/quakes.pmtiles", "rb") as f:
        source = MmapSource(f)
        reader = Reader(source)
        header = reader.header()
        pm_metadata = reader.metadata()
        pm_tiles = []
        for (z, x, y), data in all_tiles(source):
            pm_tiles.append({"z": z, "x": x, "y": y, "sha256": hashlib.sha256(data).hexdigest()})
        mismatches = sum(1 for (z, x, y), blob in blobs.items() if reader.get(z, x, y) != blob)
    header = {k: (v.value if hasattr(v, "value") else v) for k, v in header.items()}
    json.dump({"mbtiles": {"metadata": metadata, "application_id": application_id, "tiles": tiles},
               "pmtiles": {"header": header, "metadata": pm_metadata, "tiles": pm_tiles, "get_mismatches": mismatches}},
              sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
