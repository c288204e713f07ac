#!/usr/bin/env python3
"""How well a tileset shows a set of quakes, zoom by zoom (issue 14's measures).

    report.py EVENTS.csv TILES.mbtiles[+ALWAYS.geojson] [TILES.mbtiles ...]

EVENTS.csv: id,longitude,latitude,mag (mag empty when unknown): the selected events.
`+ALWAYS.geojson` adds points drawn at every zoom beside the tiles (a bundle's recent
layer, `recent.geojson`, which its style.json draws over the tiles' quakes).
For each MBTiles (ours, tippecanoe's…) and each zoom it prints:
  drawn      point features in the zoom's tiles and the ALWAYS file (the quakes a person sees)
  p50/p95/max  screen distance, in pixels of 512-pixel tiles (as MapLibre draws vector
             tiles), from every selected event to the nearest drawn quake
  missed     of the events a biggest-first 32-pixel sweep keeps (magnitude descending,
             unknown last, ties by id) over the quakes inside the Web Mercator world
             (|latitude| < 85.0511: those beyond are drawn on its edge, not at their place,
             and keep no quake of the map out), how many are not drawn (matched by the `id`
             property)
  tiles, largest  tiles at the zoom and the largest one's stored (gzip) size
Independent of quake-bake: it reads the tiles with mapbox-vector-tile and projects with
the textbook Web Mercator formula.
"""
import csv, gzip, json, math, sqlite3, sys
from concurrent.futures import ProcessPoolExecutor

import mapbox_vector_tile
import numpy as np
from scipy.spatial import cKDTree

MAX_LAT = 85.0511287798066


def project(lon, lat):
    """Unit Web Mercator (0..1, y from the north)."""
    lat = np.clip(lat, -MAX_LAT, MAX_LAT)
    s = np.sin(np.radians(lat))
    return (lon + 180) / 360, 0.5 - np.log((1 + s) / (1 - s)) / (4 * math.pi)


def read_events(path):
    ids, lon, lat, mag = [], [], [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            ids.append(row["id"])
            lon.append(float(row["longitude"]))
            lat.append(float(row["latitude"]))
            mag.append(float(row["mag"]) if row["mag"] not in ("", None) else math.nan)
    return ids, np.array(lon), np.array(lat), np.array(mag)


def decode(args):
    """Drawn points of some tiles: (ids, unit x, unit y)."""
    rows = args
    ids, xs, ys = [], [], []
    for z, x, tms_y, data in rows:
        y = (1 << z) - 1 - tms_y
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        tile = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})
        for name, layer in tile.items():
            if name == "clusters":
                continue
            extent = layer.get("extent", 4096)
            for feature in layer["features"]:
                geometry = feature["geometry"]
                if geometry["type"] != "Point":
                    continue
                if feature["properties"].get("point_count") is not None or feature["properties"].get("cluster"):
                    continue
                px, py = geometry["coordinates"]
                xs.append((x + px / extent) / (1 << z))
                ys.append((y + py / extent) / (1 << z))
                ids.append(str(feature["properties"].get("id", "")))
    return ids, xs, ys


def sweep(order, ux, uy, radius):
    """Biggest-first sweep: the events with no kept event within `radius` (unit coordinates)."""
    cell = 2 * radius
    grid = {}
    kept = []
    r2 = radius * radius
    for e in order:
        x, y = ux[e], uy[e]
        cx, cy = int(x / cell), int(y / cell)
        near = False
        for gx in (cx - 1, cx, cx + 1):
            for gy in (cy - 1, cy, cy + 1):
                for (kx, ky) in grid.get((gx, gy), ()):
                    if (kx - x) ** 2 + (ky - y) ** 2 <= r2:
                        near = True
                        break
                if near:
                    break
            if near:
                break
        if not near:
            grid.setdefault((cx, cy), []).append((x, y))
            kept.append(e)
    return kept


def read_always(path):
    """The points of a GeoJSON FeatureCollection: (ids, unit x, unit y)."""
    if not path:
        return [], [], []
    with open(path) as f:
        features = json.load(f)["features"]
    lon = np.array([f["geometry"]["coordinates"][0] for f in features], dtype=float)
    lat = np.array([f["geometry"]["coordinates"][1] for f in features], dtype=float)
    ux, uy = project(lon, lat)
    return [str(f.get("id", f["properties"].get("id", ""))) for f in features], ux.tolist(), uy.tolist()


def report(events, argument, pool):
    path, _, always_path = argument.partition("+")
    always = read_always(always_path)
    ids, lon, lat, mag = events
    ux, uy = project(lon, lat)
    uxl, uyl = ux.tolist(), uy.tolist()
    inside = [e for e in range(len(ids)) if abs(lat[e]) < MAX_LAT]
    order = sorted(inside, key=lambda e: (math.isnan(mag[e]), -mag[e] if not math.isnan(mag[e]) else 0, ids[e]))
    db = sqlite3.connect(path)
    zooms = [z for (z,) in db.execute("SELECT DISTINCT zoom_level FROM tiles ORDER BY zoom_level")]
    print(f"\n{path}" + (f" with {len(always[0]):,} quakes of {always_path} at every zoom" if always_path else ""))
    print(f"{'zoom':>4} {'drawn':>9} {'p50':>7} {'p95':>7} {'max':>8} {'missed':>15} {'tiles':>7} {'largest':>9}")
    previous = None
    for z in zooms:
        rows = db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles WHERE zoom_level = ?", (z,)).fetchall()
        largest = max(len(r[3]) for r in rows)
        chunks = [rows[i::8] for i in range(8)]
        drawn_ids, xs, ys = list(always[0]), list(always[1]), list(always[2])
        for i, x, y in pool.map(decode, chunks):
            drawn_ids += i; xs += x; ys += y
        scale = 512 * (1 << z)
        tree = cKDTree(np.column_stack([np.array(xs) * scale, np.array(ys) * scale]))
        d, _ = tree.query(np.column_stack([ux * scale, uy * scale]), k=1)
        kept = sweep(order, uxl, uyl, 32 / scale)
        drawn_set = set(drawn_ids)
        missed = sum(1 for e in kept if ids[e] not in drawn_set)
        growth = f" x{len(xs) / previous:.1f}" if previous else ""
        previous = len(xs)
        print(f"{z:>4} {len(xs):>9,} {np.percentile(d, 50):>7.1f} {np.percentile(d, 95):>7.1f} {d.max():>8.1f} "
              f"{missed:>6,} of {len(kept):>6,} {len(rows):>7,} {largest / 1000:>7.0f} KB{growth}", flush=True)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    events = read_events(sys.argv[1])
    print(f"{len(events[0]):,} selected events from {sys.argv[1]}")
    with ProcessPoolExecutor() as pool:
        for path in sys.argv[2:]:
            report(events, path, pool)


if __name__ == "__main__":
    main()
