#!/usr/bin/env python3
"""Brings an app's copy of a quake-bake bundle up to a newer version with its delta.

    apply-delta.py OLD_BUNDLE NEW_BUNDLE_OR_DELTAS

Applies NEW/deltas/<OLD's bundle_version>.mbtiles and .sqlite to OLD/quakes.mbtiles and
OLD/quakes.sqlite in place (each in one transaction), after which they hold the new
version's tiles and rows exactly. Python's sqlite3 alone: the SQL below is all an app
needs (README, "Updating an app by delta"); copy it into any SQLite client.
"""
import json
import os
import sqlite3
import sys

TILES_SQL = """
DELETE FROM tiles WHERE (zoom_level, tile_column, tile_row) IN
  (SELECT zoom_level, tile_column, tile_row FROM delta.deleted_tiles);
INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data)
  SELECT zoom_level, tile_column, tile_row, tile_data FROM delta.tiles;
DELETE FROM metadata;
INSERT INTO metadata (name, value) SELECT name, value FROM delta.metadata;
"""

# {columns}: the events columns, from `PRAGMA delta.table_info(events)`.
ROWS_SQL = """
DELETE FROM events WHERE rowid IN (SELECT rowid FROM delta.deleted_events);
DELETE FROM events_rtree WHERE id IN (SELECT rowid FROM delta.deleted_events);
DELETE FROM events_rtree WHERE id IN (SELECT rowid FROM delta.events);
INSERT OR REPLACE INTO events (rowid, {columns}) SELECT rowid, {columns} FROM delta.events;
INSERT INTO events_rtree (id, min_lon, max_lon, min_lat, max_lat)
  SELECT id, min_lon, max_lon, min_lat, max_lat FROM delta.events_rtree;
DELETE FROM info;
INSERT INTO info (name, value) SELECT name, value FROM delta.info;
"""


def apply_tiles(mbtiles, delta):
    """Applies a tiles delta (.mbtiles) to an MBTiles file."""
    db = sqlite3.connect(mbtiles, isolation_level=None)
    db.execute("ATTACH DATABASE ? AS delta", (delta,))
    db.executescript("BEGIN;" + TILES_SQL + "COMMIT;")
    db.close()


def apply_rows(app_database, delta):
    """Applies a rows delta (.sqlite) to an app database (quakes.sqlite)."""
    db = sqlite3.connect(app_database, isolation_level=None)
    db.execute("ATTACH DATABASE ? AS delta", (delta,))
    columns = ", ".join('"%s"' % row[1] for row in db.execute("PRAGMA delta.table_info(events)"))
    db.executescript("BEGIN;" + ROWS_SQL.format(columns=columns) + "COMMIT;")
    db.close()


def bundle_version(bundle):
    with open(os.path.join(bundle, "manifest.json")) as f:
        return json.load(f)["bundle_version"]


def apply(old_bundle, new_bundle):
    """Applies the delta from old_bundle's version found in new_bundle/deltas to old_bundle's files."""
    base = bundle_version(old_bundle)
    deltas = os.path.join(new_bundle, "deltas")
    apply_tiles(os.path.join(old_bundle, "quakes.mbtiles"), os.path.join(deltas, base + ".mbtiles"))
    apply_rows(os.path.join(old_bundle, "quakes.sqlite"), os.path.join(deltas, base + ".sqlite"))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    apply(sys.argv[1], sys.argv[2])
