#!/usr/bin/env python3
"""Answers the app's queries over a bundle's quakes.sqlite with plain SQL on `events` (no R-tree,
no index of ours), independently of QuakeBundleKit, for the tests to compare with.

  bundle_queries.py QUAKES_SQLITE QUERIES_JSON

QUERIES_JSON is a list of {"kind": "rect", "rect": [w, s, e, n], "start": ms|null, "end": ms|null, "limit": n},
{"kind": "details", "id": rowid}, {"kind": "recent"} or {"kind": "timeline", "rect": [...], "start": ms|null,
"end": ms|null, "bins": n}. Prints a JSON list of answers in the same order: feature ids (rect,
recent), the row's columns by name and its details document (details: {"fields", "json"}; null
when there is no such row), or per bin
[start, end, count, biggest magnitude or null] (timeline: an open start is the first quake's time,
an open end just after the last's).
"""
import json
import sqlite3
import sys


def inside(rect):
    west, south, east, north = rect
    across = "longitude >= ? OR longitude <= ?" if west > east else "longitude >= ? AND longitude <= ?"
    return "latitude >= ? AND latitude <= ? AND (%s)" % across, [south, north, west, east]


def window(query):
    sql, values = [], []
    if query.get("start") is not None:
        sql.append("time >= ?")
        values.append(query["start"])
    if query.get("end") is not None:
        sql.append("time < ?")
        values.append(query["end"])
    return sql, values


def rect(db, query):
    where, values = inside(query["rect"])
    more, extra = window(query)
    sql = "SELECT rowid FROM events WHERE %s ORDER BY mag IS NULL, mag DESC, time DESC, rowid LIMIT ?" % " AND ".join([where] + more)
    return [r[0] for r in db.execute(sql, values + extra + [query["limit"]])]


def details(db, query):
    cursor = db.execute("SELECT * FROM events WHERE rowid = ?", (query["id"],))
    row = cursor.fetchone()
    if row is None:
        return None
    fields = {d[0]: v for d, v in zip(cursor.description, row) if v is not None}
    has_details = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'details'").fetchone()[0]
    document = db.execute("SELECT json FROM details WHERE id = ?", (fields["id"],)).fetchone() if has_details else None
    return {"fields": fields, "json": document[0] if document else None}


def recent(db, _):
    since = db.execute("SELECT value FROM info WHERE name = 'recent_since'").fetchone()
    if since is None:
        return []
    return [r[0] for r in db.execute("SELECT rowid FROM events WHERE time >= ? ORDER BY time DESC, rowid", (int(since[0]),))]


def timeline(db, query):
    first, last = db.execute("SELECT min(time), max(time) FROM events").fetchone()
    start = query["start"] if query.get("start") is not None else first
    end = query["end"] if query.get("end") is not None else last + 1
    bins, width = query["bins"], end - start
    counts, biggest = [0] * bins, [None] * bins
    where, values = inside(query["rect"])
    for time, mag in db.execute("SELECT time, mag FROM events WHERE %s AND time >= ? AND time < ?" % where, values + [start, end]):
        b = (time - start) * bins // width
        counts[b] += 1
        if mag is not None and (biggest[b] is None or mag > biggest[b]):
            biggest[b] = mag
    edges = [start - (-(b * width) // bins) for b in range(bins + 1)]
    return [[edges[b], edges[b + 1], counts[b], biggest[b]] for b in range(bins)]


def main():
    db = sqlite3.connect(sys.argv[1])
    with open(sys.argv[2]) as f:
        queries = json.load(f)
    kinds = {"rect": rect, "details": details, "recent": recent, "timeline": timeline}
    print(json.dumps([kinds[q["kind"]](db, q) for q in queries]))


if __name__ == "__main__":
    main()
