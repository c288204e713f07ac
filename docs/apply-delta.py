#!/usr/bin/env python3
"""Brings an app's copy of a quake-bake bundle up to a newer version with its delta.

    apply-delta.py OLD_BUNDLE NEW_BUNDLE

NEW_BUNDLE is the new version as published (its manifest.json and deltas/; the app needs
nothing else of it to update its tiles and rows). Applies
NEW/deltas/<OLD's bundle_version>.mbtiles and .sqlite to OLD/quakes.mbtiles and
OLD/quakes.sqlite in place (each in one transaction), after which they hold the new
version's tiles and rows (and quakes' details) exactly. Python's sqlite3 alone: the SQL below is all an app
needs (docs/deltas.md); copy it into any SQLite client.

Nothing is changed unless everything checks out first:
- NEW's manifest lists a delta from the version OLD's quakes.sqlite holds (its `info` names
  it), under relative paths inside NEW (an absolute path or one with `..` is refused);
- each delta file has the size and sha256 the manifest gives (an incomplete download is
  refused);
- each delta file is what this script expects, checked against the schema declared below and
  never taken from the file: only the declared tables and their declared indexes (no trigger,
  no view, no other table), each with exactly the declared columns in order, sound pages
  (`PRAGMA quick_check`), at most MAX_ROWS rows a table, every value of the declared kind within
  its bounds; and both name that base and NEW's version in their `delta_info`.
The SQL is built from the declared names only, every identifier quoted, and run statement by
statement (never `executescript`), with `trusted_schema` off. The tiles go first and the rows,
which carry the version, last: a copy interrupted between the two still says it holds the old
version, and running this again finishes the job (the tiles step gives the same result when
repeated). Exit status 0 when applied, 1 with a message when refused.
"""
import hashlib
import json
import os
import sqlite3
import sys

MAX_ROWS = 100_000_000
TEXT = 1 << 20          # bytes of a text value
ANY_INT = (-(1 << 53), 1 << 53)
ANY_REAL = (-1e15, 1e15)
ROWID = (1, 1 << 53)


def integer(name, bounds=ANY_INT, null=True):
    return (name, "INTEGER", ("integer", bounds), null)


def real(name, bounds=ANY_REAL, null=True):
    return (name, "REAL", ("real", bounds), null)


def text(name, size=TEXT, null=True):
    return (name, "TEXT", ("text", size), null)


def blob(name, size, null=True):
    return (name, "BLOB", ("blob", size), null)


# The app database's `events` columns, in table order (docs/bundle.md).
EVENTS = [text("id", null=False), text("ids", null=False), text("sources", null=False), text("types", null=False),
          integer("time", null=False), integer("updated", null=False),
          real("longitude", (-180, 180), null=False), real("latitude", (-90, 90), null=False),
          real("depth_km"), real("mag", (-20, 20)), text("mag_type"), text("place"), text("status"), text("event_type"),
          text("net"), text("code"), integer("felt"), real("cdi"), real("mmi"), text("alert"), integer("tsunami"),
          integer("sig"), integer("nst"), real("dmin"), real("rms"), real("gap"), text("title"), text("url")]
NAME_VALUE = [text("name", 256, null=False), text("value", 4096)]

# Each delta file's tables: name -> (columns, WITHOUT ROWID?, a row condition over alias t).
ROWS_DELTA = {
    "events": (EVENTS, False, None),
    "events_rtree": ([integer("id", ROWID, null=False), real("min_lon", (-180, 180), null=False), real("max_lon", (-180, 180), null=False),
                      real("min_lat", (-90, 90), null=False), real("max_lat", (-90, 90), null=False)],
                     False, "t.min_lon <= t.max_lon AND t.min_lat <= t.max_lat"),
    "deleted_events": ([integer("rowid", ROWID, null=False)], False, None),
    "info": (NAME_VALUE, True, None),
    "delta_info": (NAME_VALUE, True, None),
    # The quakes' details: deltas of bundles made before they were carried have neither table.
    "details": ([text("id", 256, null=False), text("json", 16 << 20)], False, None),
    "deleted_details": ([text("id", 256, null=False)], False, None),
}
OPTIONAL = {"details", "deleted_details"}
TILE_KEY = [integer("zoom_level", (0, 30), null=False), integer("tile_column", (0, 1 << 30), null=False),
            integer("tile_row", (0, 1 << 30), null=False)]
IN_ZOOM = "t.tile_column < (1 << t.zoom_level) AND t.tile_row < (1 << t.zoom_level)"
TILES_DELTA = {
    "metadata": ([text("name", 256), text("value")], False, None),
    "tiles": (TILE_KEY + [blob("tile_data", 16 << 20, null=False)], False, IN_ZOOM),
    "deleted_tiles": (TILE_KEY, False, IN_ZOOM),
    "delta_info": (NAME_VALUE, True, None),
}
INDEXES = {"metadata_name", "tile_index", "deleted_tile_index"}


class Refused(Exception):
    """A delta that cannot be applied to this copy, with why; the copy is left as it was."""


def q(name):
    """An SQL identifier, quoted (any `"` in it doubled)."""
    return '"' + name.replace('"', '""') + '"'


def names(columns, prefix=""):
    return ", ".join(prefix + q(c[0]) for c in columns)


def shown(text):
    return repr(text if len(text) <= 60 else text[:60] + "…")


def value_check(column):
    name, _, (kind, bound), null = column
    v = "t." + q(name)
    if kind == "integer":
        check = "typeof(%s) = 'integer' AND %s BETWEEN %d AND %d" % (v, v, bound[0], bound[1])
    elif kind == "real":
        check = "typeof(%s) IN ('real', 'integer') AND %s BETWEEN %r AND %r" % (v, v, float(bound[0]), float(bound[1]))
    elif kind == "text":
        check = "typeof(%s) = 'text' AND length(CAST(%s AS BLOB)) <= %d" % (v, v, bound)
    else:
        check = "typeof(%s) = 'blob' AND length(%s) <= %d" % (v, v, bound)
    return "(%s IS NULL OR (%s))" % (v, check) if null else "(%s)" % check


def check_schema(db, tables, path):
    """Refuses the file attached as `delta` unless it is exactly as `tables` declares; returns
    the names of the tables it holds (an optional one may be absent)."""
    present = set()
    for kind, name, owner, sql in db.execute("SELECT type, name, tbl_name, sql FROM delta.sqlite_master"):
        if kind == "table":
            present.add(name)
            if name not in tables:
                raise Refused("%s holds a table %s that a delta should not" % (path, shown(name)))
            without_rowid = "WITHOUTROWID" in "".join((sql or "").upper().split())
            if without_rowid != tables[name][1] or (sql or "").upper().lstrip().startswith("CREATE VIRTUAL"):
                raise Refused("%s: its table %s is not stored as it should be" % (path, name))
        elif kind == "index":
            if owner not in tables or not (name in INDEXES or name.startswith("sqlite_autoindex_%s_" % owner)):
                raise Refused("%s holds an index %s that a delta should not" % (path, shown(name)))
        else:
            raise Refused("%s holds a %s %s (a delta holds tables and their indexes only)" % (path, shown(kind), shown(name)))
    for name, (columns, _, _) in tables.items():
        found = [(r[1], (r[2] or "").upper(), r[6]) for r in db.execute("PRAGMA delta.table_xinfo(%s)" % q(name))]
        if not found and name in OPTIONAL:
            continue
        if not found:
            raise Refused("%s has no table %s" % (path, name))
        expected = [(c[0], c[1], 0) for c in columns]
        for number, (have, want) in enumerate(zip(found, expected), 1):
            if have != want:
                raise Refused("%s: column %d of its table %s is %s %s%s, not %s %s"
                              % (path, number, name, shown(have[0]), have[1], " (hidden)" if have[2] else "", want[0], want[1]))
        if len(found) != len(expected):
            more = found[len(expected):] or expected[len(found):]
            raise Refused("%s: its table %s has %d columns, not %d (%s %s)" % (path, name, len(found), len(expected),
                          "more:" if len(found) > len(expected) else "missing:", ", ".join(shown(c[0]) for c in more)))
    problems = [r[0] for r in db.execute("PRAGMA delta.quick_check(5)")]
    if problems != ["ok"]:
        raise Refused("%s is damaged: %s" % (path, "; ".join(shown(p) for p in problems[:3])))
    for name, (columns, without_rowid, row_check) in tables.items():
        if name not in present:
            continue
        checks = [("column " + c[0], value_check(c)) for c in columns]
        if not without_rowid:
            checks.append(("its rowids", "t.rowid BETWEEN %d AND %d" % ROWID))
        if row_check:
            checks.append(("its rows' consistency", row_check))
        sums = ", ".join("coalesce(sum(NOT (%s)), 0)" % sql for _, sql in checks)
        counts = db.execute("SELECT count(*), %s FROM delta.%s AS t" % (sums, q(name))).fetchone()
        if counts[0] > MAX_ROWS:
            raise Refused("%s: its table %s holds %d rows, more than %d" % (path, name, counts[0], MAX_ROWS))
        for (what, _), bad in zip(checks, counts[1:]):
            if bad:
                raise Refused("%s: its table %s has %d rows whose %s is out of bounds or of the wrong type" % (path, name, bad, what))
    return present


def attach(database, delta, tables):
    """`database` opened with `delta` attached as `delta` (read-only) and checked against
    `tables`, and the names of the tables the delta holds."""
    for path in (database, delta):
        if not os.path.isfile(path):
            raise Refused("%s: no such file" % path)
    db = sqlite3.connect(database, isolation_level=None, uri=True)
    db.execute("PRAGMA trusted_schema = OFF")
    uri = "file:%s?mode=ro" % os.path.abspath(delta).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    db.execute("ATTACH DATABASE ? AS delta", (uri,))
    try:
        present = check_schema(db, tables, delta)
    except Refused:
        db.close()
        raise
    return db, present


def run(db, statements):
    """Runs `statements` in one transaction (each with `execute`, none from the delta)."""
    db.execute("BEGIN")
    try:
        for statement in statements:
            db.execute(statement)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    finally:
        db.close()


def apply_tiles(mbtiles, delta):
    """Applies a tiles delta (.mbtiles) to an MBTiles file (`apply` checks first that it is the file's)."""
    db, _ = attach(mbtiles, delta, TILES_DELTA)
    key = names(TILE_KEY)
    tiles = names(TILES_DELTA["tiles"][0])
    run(db, ["DELETE FROM main.tiles WHERE (%s) IN (SELECT %s FROM delta.deleted_tiles)" % (key, key),
             "INSERT OR REPLACE INTO main.tiles (%s) SELECT %s FROM delta.tiles" % (tiles, tiles),
             "DELETE FROM main.metadata",
             "INSERT INTO main.metadata (name, value) SELECT name, value FROM delta.metadata"])


def apply_rows(app_database, delta):
    """Applies a rows delta (.sqlite) to an app database (quakes.sqlite) (`apply` checks first that it is the database's)."""
    db, tables = attach(app_database, delta, ROWS_DELTA)
    columns = names(EVENTS)
    if ("details" in tables) != ("deleted_details" in tables):
        db.close()
        raise Refused("%s holds one of the tables details and deleted_details without the other" % delta)
    has_details = "details" in tables
    run(db, ["DELETE FROM main.events WHERE rowid IN (SELECT rowid FROM delta.deleted_events)",
             "DELETE FROM main.events_rtree WHERE id IN (SELECT rowid FROM delta.deleted_events)",
             "DELETE FROM main.events_rtree WHERE id IN (SELECT rowid FROM delta.events)",
             "INSERT OR REPLACE INTO main.events (rowid, %s) SELECT rowid, %s FROM delta.events" % (columns, columns),
             "INSERT INTO main.events_rtree (id, min_lon, max_lon, min_lat, max_lat) "
             "SELECT id, min_lon, max_lon, min_lat, max_lat FROM delta.events_rtree",
             "DELETE FROM main.info",
             "INSERT INTO main.info (name, value) SELECT name, value FROM delta.info"]
        + (["CREATE TABLE IF NOT EXISTS main.details (id TEXT PRIMARY KEY, json TEXT)",
            "DELETE FROM main.details WHERE id IN (SELECT id FROM delta.deleted_details)",
            "INSERT OR REPLACE INTO main.details (id, json) SELECT id, json FROM delta.details"] if has_details else []))


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


def inside(bundle, relative):
    """`bundle`/`relative`, refused when `relative` is absolute or leaves the bundle (`..`)."""
    if not isinstance(relative, str) or not relative or os.path.isabs(relative) or "\\" in relative \
            or any(part in ("", ".", "..") for part in relative.split("/")):
        raise Refused("the manifest of %s names the path %s, which is not a plain path inside the bundle" % (bundle, shown(str(relative))))
    return os.path.join(bundle, relative)


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
        path = inside(new_bundle, entry["path"])
        if not os.path.isfile(path):
            raise Refused("%s: missing" % path)
        size = os.path.getsize(path)
        if size != entry["bytes"]:
            raise Refused("%s: %d bytes, the manifest says %d (an incomplete download?)" % (path, size, entry["bytes"]))
        if sha256(path) != entry["sha256"]:
            raise Refused("%s: its sha256 is not the one the manifest gives (damaged?)" % path)
        files[os.path.splitext(path)[1]] = path
    if set(files) != {".mbtiles", ".sqlite"} or len(listed[0]["files"]) != 2:
        raise Refused("the manifest of version %s lists %s for the delta from %s, not one .mbtiles and one .sqlite"
                      % (target, sorted(files.values()), base))
    return files[".mbtiles"], files[".sqlite"], target


def apply(old_bundle, new_bundle):
    """Applies the delta from the version old_bundle holds, found in new_bundle/deltas, to old_bundle's files."""
    base = held_version(old_bundle)
    tiles, rows, target = delta_files(new_bundle, base)
    for delta, target_file, tables in ((tiles, "quakes.mbtiles", TILES_DELTA), (rows, "quakes.sqlite", ROWS_DELTA)):
        db, _ = attach(os.path.join(old_bundle, target_file), delta, tables)  # both checked before either is applied
        joined = dict(db.execute("SELECT name, value FROM delta.delta_info"))
        db.close()
        if joined != {"base_version": base, "bundle_version": target}:
            raise Refused("%s joins versions %s → %s, not %s → %s"
                          % (delta, joined.get("base_version"), joined.get("bundle_version"), base, target))
    apply_tiles(os.path.join(old_bundle, "quakes.mbtiles"), tiles)
    apply_rows(os.path.join(old_bundle, "quakes.sqlite"), rows)
    return base, target


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    try:
        old, new = apply(sys.argv[1], sys.argv[2])
    except (Refused, OSError, ValueError, KeyError, TypeError, sqlite3.Error) as error:
        sys.exit("apply-delta: %s: %s" % (sys.argv[1], error))
    print("apply-delta: %s: version %s → %s" % (sys.argv[1], old, new))
