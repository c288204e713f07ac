#!/usr/bin/env python3
"""Applies bundle deltas with Python's sqlite3 (docs/apply-delta.py, the documented SQL) and
compares the result with the newer version, tile by tile and row by row.

  delta_witness.py WORK OLD NEW           apply NEW's delta from OLD to a copy of OLD's files
  delta_witness.py WORK OLD MID NEW       …and also OLD → MID → NEW, compared with OLD → NEW

Prints JSON: per step the delta's contents (tiles, deleted tiles, rows, deleted rows) and the
mismatches (tiles, events rows, R-tree entries, info, metadata, details) against NEW (all 0 when right).
"""
import importlib.util
import json
import os
import shutil
import sqlite3
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("apply_delta", os.path.join(here, "..", "..", "docs", "apply-delta.py"))
apply_delta = importlib.util.module_from_spec(spec)
spec.loader.exec_module(apply_delta)


def copy(bundle, to):
    os.makedirs(to)
    for name in ("quakes.mbtiles", "quakes.sqlite", "manifest.json"):
        shutil.copy(os.path.join(bundle, name), os.path.join(to, name))
    return to


def differences(a, b, table, key, columns):
    """Rows of `table` (keyed by `key`) in one database and not the other, or with any column not identical."""
    db = sqlite3.connect(a)
    db.execute("ATTACH DATABASE ? AS b", (b,))
    on = " AND ".join("x.%s = y.%s" % (k, k) for k in key)
    same = " AND ".join("x.%s IS y.%s" % (c, c) for c in columns)
    count = lambda sql: db.execute(sql).fetchone()[0]
    missing = count("SELECT count(*) FROM main.%s x WHERE NOT EXISTS (SELECT 1 FROM b.%s y WHERE %s)" % (table, table, on))
    extra = count("SELECT count(*) FROM b.%s x WHERE NOT EXISTS (SELECT 1 FROM main.%s y WHERE %s)" % (table, table, on))
    differing = count("SELECT count(*) FROM main.%s x JOIN b.%s y ON %s WHERE NOT (%s)" % (table, table, on, same))
    total = count("SELECT count(*) FROM b.%s" % table)
    db.close()
    return missing + extra + differing, total


def compare(a, b):
    """Mismatches between two bundles' tiles and rows (exact: blobs and values compared with IS)."""
    db = sqlite3.connect(os.path.join(b, "quakes.sqlite"))
    columns = ['"%s"' % r[1] for r in db.execute("PRAGMA table_info(events)")]
    db.close()
    out = {}
    for name, file, table, key, cols in [
        ("tiles", "quakes.mbtiles", "tiles", ["zoom_level", "tile_column", "tile_row"], ["tile_data"]),
        ("metadata", "quakes.mbtiles", "metadata", ["name"], ["value"]),
        ("rows", "quakes.sqlite", "events", ["rowid"], columns),
        ("rtree", "quakes.sqlite", "events_rtree", ["id"], ["min_lon", "max_lon", "min_lat", "max_lat"]),
        ("info", "quakes.sqlite", "info", ["name"], ["value"]),
        ("details", "quakes.sqlite", "details", ["id"], ["json"]),
    ]:
        out[name], out[name + "_count"] = differences(os.path.join(a, file), os.path.join(b, file), table, key, cols)
    return out


def contents(new, old):
    base = apply_delta.held_version(old)
    t = sqlite3.connect(os.path.join(new, "deltas", base + ".mbtiles"))
    r = sqlite3.connect(os.path.join(new, "deltas", base + ".sqlite"))
    return {"delta_tiles": t.execute("SELECT count(*) FROM tiles").fetchone()[0],
            "deleted_tiles": t.execute("SELECT count(*) FROM deleted_tiles").fetchone()[0],
            "delta_rows": r.execute("SELECT count(*) FROM events").fetchone()[0],
            "deleted_rows": r.execute("SELECT count(*) FROM deleted_events").fetchone()[0],
            "delta_details": r.execute("SELECT count(*) FROM details").fetchone()[0],
            "deleted_details": r.execute("SELECT count(*) FROM deleted_details").fetchone()[0]}


def step(work, old, new, name):
    target = copy(old, os.path.join(work, name))
    apply_delta.apply(target, new)
    return target


def main():
    work, bundles = sys.argv[1], sys.argv[2:]
    report = {}
    old, new = bundles[0], bundles[-1]
    direct = step(work, old, new, "direct")
    report["direct"] = dict(contents(new, old), **compare(direct, new))
    if len(bundles) == 3:
        mid = bundles[1]
        chained = step(work, old, mid, "chain-1")
        report["first"] = dict(contents(mid, old), **compare(chained, mid))
        # The chain's second step: the chained copy's quakes.sqlite now names the mid version
        # (its manifest is still the old one's), and the applier goes by it.
        apply_delta.apply(chained, new)
        report["chain"] = dict(contents(new, mid), **compare(chained, new))
        report["chain_vs_direct"] = compare(chained, direct)
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
