#!/usr/bin/env python3
"""Reads a publication from its store over plain HTTP, as an app or a web client would.

  published_witness.py check BASE_URL
      reads BASE_URL/current.json and every object it names (files and every delta entry's
      files), checks each one's size and sha256 (and, for gzip ones, the decoded size and
      sha256), prints JSON {"version", "objects", "bytes", "problems": [...]}
  published_witness.py pmtiles PUBLISHED_URL BUNDLE_PMTILES
      reads the PMTiles object at PUBLISHED_URL (one GET) and every tile in it (pmtiles.reader),
      and every tile of the bundle's own file, prints JSON
      {"tiles", "different", "missing", "extra", "clustered"}
      (MapLibre Native reads the same object by range requests in the tests)
"""
import gzip
import hashlib
import json
import sys
import urllib.error
import urllib.request

from pmtiles.reader import MemorySource, MmapSource, all_tiles, deserialize_header


def fetch(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read(), dict(response.headers)


def check(base):
    base = base.rstrip("/") + "/"
    problems = []
    pointer = json.loads(fetch(base + "current.json")[0])
    files = list(pointer["files"]) + [f for entry in pointer["deltas"] for f in entry["files"]]
    seen, total = set(), 0
    for f in files:
        if f["key"] in seen:
            continue
        seen.add(f["key"])
        try:
            data, _ = fetch(base + f["key"])
        except urllib.error.HTTPError as error:
            problems.append(f"{f['key']} ({f['name']}): HTTP {error.code}")
            continue
        total += len(data)
        if len(data) != f["bytes"] or hashlib.sha256(data).hexdigest() != f["sha256"]:
            problems.append(f"{f['key']} ({f['name']}): {len(data)} bytes, not the {f['bytes']} with the sha256 named")
        elif f.get("encoding") == "gzip":
            content = gzip.decompress(data)
            if len(content) != f["content_bytes"] or hashlib.sha256(content).hexdigest() != f["content_sha256"]:
                problems.append(f"{f['key']} ({f['name']}): decodes to other content than named")
    print(json.dumps({"version": pointer["bundle_version"], "objects": len(seen), "bytes": total, "problems": problems}))


def pmtiles(url, bundle):
    remote = MemorySource(fetch(url)[0])
    header = deserialize_header(remote(0, 127))
    published = {zxy: data for zxy, data in all_tiles(remote)}
    with open(bundle, "rb") as f:
        own = {zxy: data for zxy, data in all_tiles(MmapSource(f))}
    different = sum(1 for zxy, data in own.items() if zxy in published and published[zxy] != data)
    print(json.dumps({"tiles": len(published), "different": different, "missing": len(set(own) - set(published)),
                      "extra": len(set(published) - set(own)), "clustered": header["clustered"]}))


if __name__ == "__main__":
    {"check": check, "pmtiles": pmtiles}[sys.argv[1]](*sys.argv[2:])
