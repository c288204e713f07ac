#!/usr/bin/env python3
"""Brings an app's copy of a quake-bake bundle up to a newer version with its delta.

    apply-delta.py OLD_BUNDLE NEW_BUNDLE

NEW_BUNDLE is the new version as published (its manifest.json and deltas/; the app needs
nothing else of it to update its tiles and rows). Applies
NEW/deltas/<OLD's bundle_version>.mbtiles and .sqlite to OLD/quakes.mbtiles and
OLD/quakes.sqlite in place (each in one transaction), after which they hold the new
version's tiles and rows (and quakes' details) exactly. Python's sqlite3 alone: the SQL below is all an app
needs (README, "Updating an app by delta"); copy it into any SQLite client.

Nothing is changed unless everything checks out first: NEW's manifest lists a delta from
the version OLD's quakes.sqlite holds (its `info` names it), each delta file has the size
and sha256 the manifest gives (an incomplete download is refused), and both files name
that base and NEW's version in their `delta_info` (deltas made before the files named
their versions have none, and are taken on the manifest's word). The tiles go first and the rows, which
carry the version, last: a copy interrupted between the two still says it holds the old
version, and running this again finishes the job (the tiles step gives the same result
when repeated). Exit status 0 when applied, 1 with a message when refused.
"""
import hashlib
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

# The quakes' details (deltas of bundles with format 4 and later carry them; a copy made
# before had no such table).
DETAILS_SQL = """
CREATE TABLE IF NOT EXISTS details (id TEXT PRIMARY KEY, json TEXT);
DELETE FROM details WHERE id IN (SELECT id FROM delta.deleted_details);
INSERT OR REPLACE INTO details (id, json) SELECT id, json FROM delta.details;
"""


class Refused(Exception):
    """A delta that cannot be applied to this copy, with why; the copy is left as it was."""


def attach(database, delta):
    """`database` opened with `delta` attached as `delta` (only read)."""
    if not os.path.isfile(database):
        raise Refused("%s: no such file" % database)
    if not os.path.isfile(delta):
        raise Refused("%s: no such file" % delta)
    db = sqlite3.connect(database, isolation_level=None)
    db.execute("ATTACH DATABASE ? AS delta", (delta,))
    return db


def versions(db):
    """The versions a delta joins (its `delta_info`), or (None, None) for a file without them."""
    try:
        rows = dict(db.execute("SELECT name, value FROM delta.delta_info"))
    except sqlite3.Error:
        return None, None
    return rows.get("base_version"), rows.get("bundle_version")


def apply_tiles(mbtiles, delta):
    """Applies a tiles delta (.mbtiles) to an MBTiles file (`apply` checks first that it is the file's)."""
    db = attach(mbtiles, delta)
    db.executescript("BEGIN;" + TILES_SQL + "COMMIT;")
    db.close()


def apply_rows(app_database, delta):
    """Applies a rows delta (.sqlite) to an app database (quakes.sqlite) (`apply` checks first that it is the database's)."""
    db = attach(app_database, delta)
    columns = ", ".join('"%s"' % row[1] for row in db.execute("PRAGMA delta.table_info(events)"))
    has_details = db.execute("SELECT count(*) FROM delta.sqlite_master WHERE type = 'table' AND name = 'details'").fetchone()[0] > 0
    db.executescript("BEGIN;" + ROWS_SQL.format(columns=columns) + (DETAILS_SQL if has_details else "") + "COMMIT;")
    db.close()


def bundle_version(bundle):
    """The version a bundle directory's manifest names."""
    try:
        with open(os.path.join(bundle, "manifest.json")) as f:
            return json.load(f)["bundle_version"]
    except (OSError, ValueError, KeyError) as error:
        raise Refused("%s: no readable manifest.json (%s)" % (bundle, error))


def held_version(bundle):
    """The version an app's copy holds: the one its quakes.sqlite names (bundles of quake-bake
    since the version name was put there), else the one its manifest names."""
    path = os.path.join(bundle, "quakes.sqlite")
    if not os.path.isfile(path):
        raise Refused("%s: no such file" % path)
    try:
        db = sqlite3.connect(path)
        row = db.execute("SELECT value FROM info WHERE name = 'bundle_version'").fetchone()
        db.close()
    except sqlite3.Error:
        row = None
    return row[0] if row else bundle_version(bundle)


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def delta_files(new_bundle, base):
    """NEW's delta files from `base`, checked against NEW's manifest, and NEW's version."""
    with open(os.path.join(new_bundle, "manifest.json")) as f:
        manifest = json.load(f)
    target = manifest["bundle_version"]
    if target == base:
        raise Refused("the copy already holds version %s" % base)
    listed = [d for d in manifest.get("deltas", []) if d.get("base") == base]
    if not listed:
        bases = ", ".join(d.get("base", "?") for d in manifest.get("deltas", [])) or "none"
        raise Refused("version %s has no delta from version %s (it has deltas from: %s): download the whole bundle"
                      % (target, base, bases))
    files = {}
    for entry in listed[0]["files"]:
        path = os.path.join(new_bundle, entry["path"])
        if not os.path.isfile(path):
            raise Refused("%s: missing" % path)
        size = os.path.getsize(path)
        if size != entry["bytes"]:
            raise Refused("%s: %d bytes, the manifest says %d (an incomplete download?)" % (path, size, entry["bytes"]))
        if sha256(path) != entry["sha256"]:
            raise Refused("%s: its sha256 is not the one the manifest gives (damaged?)" % path)
        files[os.path.splitext(path)[1]] = path
    if set(files) != {".mbtiles", ".sqlite"}:
        raise Refused("the manifest of version %s lists %s for the delta from %s, not one .mbtiles and one .sqlite"
                      % (target, sorted(files.values()), base))
    return files[".mbtiles"], files[".sqlite"], target


def apply(old_bundle, new_bundle):
    """Applies the delta from the version old_bundle holds, found in new_bundle/deltas, to old_bundle's files."""
    base = held_version(old_bundle)
    tiles, rows, target = delta_files(new_bundle, base)
    for delta in (tiles, rows):  # both checked before either is applied
        db = sqlite3.connect(":memory:")
        db.execute("ATTACH DATABASE ? AS delta", (delta,))
        joined = versions(db)
        db.close()
        if joined not in ((base, target), (None, None)):  # (None, None): a delta made before the files named their versions
            raise Refused("%s joins versions %s → %s, not %s → %s" % ((delta,) + joined + (base, target)))
    apply_tiles(os.path.join(old_bundle, "quakes.mbtiles"), tiles)
    apply_rows(os.path.join(old_bundle, "quakes.sqlite"), rows)
    return base, target


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    try:
        old, new = apply(sys.argv[1], sys.argv[2])
    except (Refused, OSError, ValueError, KeyError, sqlite3.Error) as error:
        sys.exit("apply-delta: %s: %s" % (sys.argv[1], error))
    print("apply-delta: %s: version %s → %s" % (sys.argv[1], old, new))
