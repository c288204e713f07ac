#!/usr/bin/env python3
"""Renders a bundle with its own style.json in MapLibre Native (mapli) and counts pixels.

  render_style.py [OPTION...] BUNDLE_DIR OUT_DIR VIEW...   each VIEW is name:lon:lat:zoom
  render_style.py --style-url URL OUT_DIR VIEW...     a style as `quake-bake serve` hands it out

Options change the bundle's style before drawing: --layers ID,... keeps only the layers named
(the background is always kept); --hide ID,... leaves those out; --paint ID:PROPERTY=JSON sets
a paint property of a layer (e.g. heat:heatmap-weight=1), --set ID:KEY=JSON a key of the layer
itself (e.g. heat:source-layer="quakes"); both repeatable.

The style's vector source is pointed at BUNDLE_DIR/quakes.pmtiles (absolute file URL) and
each GeoJSON source naming a file of the bundle (the recent layer's `recent.geojson`, the
basemap's `land.geojson` and `plate-boundaries.geojson`) is given its data; nothing else in the style changes, but that --layers keeps
only the layers named (the background is always kept). With --style-url the style is fetched over HTTP and
drawn as it is (its tiles come from the same server). For each view it writes OUT_DIR/<name>.png (800x600)
and reports how many pixels have the colour of a quake (any class of the legend kept in
the style's metadata, as MapLibre blends it over the background) and how many the
background's. Prints JSON: {"<name>": {"quake": N, "background": N, "pixels": N}}.
"""
import json
import os
import sys
import urllib.request

os.environ.setdefault("EGL_PLATFORM", "surfaceless")
import numpy  # noqa: E402
import mapli  # noqa: E402
from png import decode_png, hex_colour  # noqa: E402

WIDTH, HEIGHT = 800, 600


def main():
    if sys.argv[1] == "--style-url":
        with urllib.request.urlopen(sys.argv[2]) as response:
            style = json.load(response)
        out_dir, views = sys.argv[3], sys.argv[4:]
    else:
        args = sys.argv[1:]
        only, hidden, paints = None, set(), []
        while args[0].startswith("--"):
            option, value, args = args[0], args[1], args[2:]
            if option == "--layers":
                only = set(value.split(",")) | {"background"}
            elif option == "--hide":
                hidden |= set(value.split(","))
            elif option in ("--paint", "--set"):
                target, setting = value.split("=", 1)
                layer, prop = target.split(":", 1)
                paints.append((layer, prop, json.loads(setting), option == "--paint"))
            else:
                sys.exit(f"render_style.py: unknown option {option}")
        bundle, out_dir, views = args[0], args[1], args[2:]
        with open(os.path.join(bundle, "style.json")) as f:
            style = json.load(f)
        style["sources"]["quakes"]["url"] = "pmtiles://file://" + os.path.abspath(os.path.join(bundle, "quakes.pmtiles"))
        for source in style["sources"].values():
            if source["type"] == "geojson" and isinstance(source["data"], str):
                with open(os.path.join(bundle, source["data"])) as f:
                    source["data"] = json.load(f)
        if only is not None:
            style["layers"] = [layer for layer in style["layers"] if layer["id"] in only]
        style["layers"] = [layer for layer in style["layers"] if layer["id"] not in hidden]
        for layer_id, prop, setting, is_paint in paints:
            layer = next(layer for layer in style["layers"] if layer["id"] == layer_id)
            (layer.setdefault("paint", {}) if is_paint else layer)[prop] = setting
    background = hex_colour(next(l for l in style["layers"] if l["type"] == "background")["paint"]["background-color"])
    legend = [hex_colour(b["colour"]) for b in style["metadata"]["quake-bake:legend"]]
    quake_layer = next((l for l in style["layers"] if l["id"] in ("quakes", "recent")), None)
    opacity = quake_layer["paint"]["circle-opacity"] if quake_layer else 1
    blended = [numpy.rint(c * opacity + background * (1 - opacity)).astype(numpy.int32) for c in legend]
    pool = mapli.RenderPool(workers=1)
    pool.register_style("bundle", json=style)
    report = {}
    for view in views:
        name, lon, lat, zoom = view.split(":")
        png = pool.render("bundle", lon=float(lon), lat=float(lat), zoom=float(zoom), width=WIDTH, height=HEIGHT)
        with open(os.path.join(out_dir, name + ".png"), "wb") as f:
            f.write(png)
        pixels = decode_png(png)
        quake = numpy.zeros(pixels.shape[:2], dtype=bool)
        for colour in blended + legend:
            quake |= numpy.abs(pixels - colour).sum(axis=2) <= 24
        plain = numpy.abs(pixels - background).sum(axis=2) <= 6
        report[name] = {"quake": int(quake.sum()), "background": int(plain.sum()), "pixels": int(pixels.shape[0] * pixels.shape[1])}
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
