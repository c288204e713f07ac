#!/usr/bin/env python3
"""Independent witness for quake-bake's tile primitives (used by TilesTests).

  tiles_witness.py decode FILE        decode one MVT tile (gzip or raw) with mapbox-vector-tile
  tiles_witness.py tileids Z/X/Y ...  PMTiles v3 tile ids from the pmtiles package
  tiles_witness.py featureids ID ...  the documented feature id: SipHash-2-4 (key 00..0f) of
                                      the UTF-8 id, low 53 bits -- implemented here from the paper
  tiles_witness.py pmtiles BUNDLE     every tile of BUNDLE/quakes.pmtiles through the pmtiles
                                      reader (leaf directories included), against quakes.mbtiles
  tiles_witness.py heat MBTILES Z     every point of the `heat` layer of zoom Z's tiles:
                                      [x, y, point_count] in world pixels of 512-pixel tiles

Prints JSON on stdout.
"""
import gzip
import json
import sys

MASK64 = (1 << 64) - 1


def siphash24(key0, key1, data):
    def rotl(x, b):
        return ((x << b) | (x >> (64 - b))) & MASK64

    v0 = key0 ^ 0x736F6D6570736575
    v1 = key1 ^ 0x646F72616E646F6D
    v2 = key0 ^ 0x6C7967656E657261
    v3 = key1 ^ 0x7465646279746573

    def sipround():
        nonlocal v0, v1, v2, v3
        v0 = (v0 + v1) & MASK64; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32)
        v2 = (v2 + v3) & MASK64; v3 = rotl(v3, 16); v3 ^= v2
        v0 = (v0 + v3) & MASK64; v3 = rotl(v3, 21); v3 ^= v0
        v2 = (v2 + v1) & MASK64; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32)

    whole = len(data) // 8 * 8
    for i in range(0, whole, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v3 ^= m
        sipround(); sipround()
        v0 ^= m
    last = (len(data) & 0xFF) << 56 | int.from_bytes(data[whole:], "little")
    v3 ^= last
    sipround(); sipround()
    v0 ^= last
    v2 ^= 0xFF
    for _ in range(4):
        sipround()
    return v0 ^ v1 ^ v2 ^ v3


def points(feature):
    """Every point of a Point or MultiPoint feature, as [x, y] pairs."""
    geometry = feature["geometry"]
    return geometry["coordinates"] if geometry["type"] == "MultiPoint" else [geometry["coordinates"]]


def main(command, args):
    if command == "decode":
        import mapbox_vector_tile
        data = open(args[0], "rb").read()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        layers = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})
        out = {name: {"version": layer["version"], "extent": layer["extent"],
                      "features": [{"id": f.get("id"), "x": points(f)[0][0], "y": points(f)[0][1], "points": points(f),
                                    "type": f["geometry"]["type"], "properties": f["properties"]} for f in layer["features"]]}
               for name, layer in layers.items()}
    elif command == "tileids":
        from pmtiles.tile import zxy_to_tileid
        out = {arg: zxy_to_tileid(*map(int, arg.split("/"))) for arg in args}
    elif command == "featureids":
        key0 = int.from_bytes(bytes(range(0, 8)), "little")
        key1 = int.from_bytes(bytes(range(8, 16)), "little")
        out = {arg: siphash24(key0, key1, arg.encode("utf-8")) & ((1 << 53) - 1) for arg in args}
    elif command == "pmtiles":
        import sqlite3
        from pmtiles.reader import MmapSource, Reader, all_tiles
        db = sqlite3.connect(f"{args[0]}/quakes.mbtiles")
        blobs = {(z, x, (1 << z) - 1 - row): bytes(blob)
                 for z, x, row, blob in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")}
        with open(f"{args[0]}/quakes.pmtiles", "rb") as f:
            source = MmapSource(f)
            reader = Reader(source)
            header = {k: (v.value if hasattr(v, "value") else v) for k, v in reader.header().items()}
            listed = {key: data for key, data in all_tiles(source)}
            # Every tile as the directory walk lists it; the reader's own lookup (which walks the
            # directories again per tile, slow in Python) on every 50th.
            keys = sorted(blobs)
            mismatches = sum(1 for key in keys if listed.get(key) != blobs[key])
            mismatches += sum(1 for key in keys[::50] if reader.get(*key) != blobs[key])
        out = {"header": header, "tiles": len(listed), "mbtiles_tiles": len(blobs), "mismatches": mismatches}
    elif command == "heat":
        import sqlite3
        import mapbox_vector_tile
        zoom = int(args[1])
        out = []
        for x, row, blob in sqlite3.connect(args[0]).execute(
                "SELECT tile_column, tile_row, tile_data FROM tiles WHERE zoom_level = ?", (zoom,)):
            y = (1 << zoom) - 1 - row
            layer = mapbox_vector_tile.decode(gzip.decompress(blob), default_options={"y_coord_down": True}).get("heat")
            for feature in (layer or {}).get("features", []):
                for px, py in points(feature):
                    out.append([(x + px / layer["extent"]) * 512, (y + py / layer["extent"]) * 512, feature["properties"]["point_count"]])
    else:
        raise SystemExit(f"unknown command {command}")
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
