#!/usr/bin/env python3
"""Reads recorded USGS detail answers and product files on its own (json, ElementTree for QuakeML
and pager.xml, html.parser for the text products) and prints what a quake's summary must say.

  detail_witness.py DETAIL_DIR

DETAIL_DIR is laid out as data/detail: events/ID.geojson.gz, product/PATH.gz. The products
are those the service answers without includesuperseded (the newest version of each source and
code), the preferred one of a type the highest preferredWeight, then the newest updateTime
(USGS's rule). A value comes from a product file only when the file was recorded. Prints JSON:
{id: {...expected...}} with null where the summary must say nothing.
"""
import gzip
import html.parser
import json
import os
import sys
import xml.etree.ElementTree as ElementTree


def newest(versions):
    best = {}
    for v in versions:
        key = (v.get("source"), v.get("code"))
        if key not in best or v["updateTime"] > best[key]["updateTime"]:
            best[key] = v
    return [v for v in versions if best[(v.get("source"), v.get("code"))] is v]


def preferred(products, kind):
    versions = [v for v in newest(products.get(kind, [])) if v.get("status", "UPDATE").upper() != "DELETE"]
    return max(versions, key=lambda v: (v.get("preferredWeight", 0), v["updateTime"])) if versions else None


def number(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value


class Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []

    def handle_data(self, data):
        self.parts.append(data)

    # Block elements part words; inline ones (a, b, i, span) do not.
    blocks = {"p", "div", "br", "li", "ul", "ol", "table", "tr", "td", "blockquote", "figure", "h1", "h2", "h3", "h4", "h5", "h6"}

    def handle_starttag(self, tag, attrs):
        if tag in self.blocks:
            self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in self.blocks:
            self.parts.append(" ")


def plain(markup):
    parser = Text()
    parser.feed(markup)
    parser.close()
    return " ".join("".join(parser.parts).split())


def content_text(version):
    contents = version.get("contents") or {}
    if isinstance(contents, list):
        return None
    return (contents.get("") or {}).get("bytes")


class Recorded:
    def __init__(self, directory):
        self.directory = directory

    def file(self, url):
        """The recorded product file at `url` (…/product/PATH), or None."""
        path = os.path.join(self.directory, "product", url.split("/product/", 1)[1] + ".gz")
        if not os.path.exists(path):
            return None
        with gzip.open(path, "rb") as f:
            return f.read()

    def content(self, version, name):
        contents = version.get("contents") or {}
        if isinstance(contents, list) or name not in contents or "url" not in contents[name]:
            return None
        return self.file(contents[name]["url"])


def mechanism(recorded, version):
    if version is None:
        return None
    p = version["properties"]
    planes = []
    for k in (1, 2):
        values = [number(p.get("nodal-plane-%d-%s" % (k, what))) for what in ("strike", "dip", "rake")]
        if None not in values:
            planes.append(values)
    tensor = None
    names = ["mrr", "mtt", "mpp", "mrt", "mrp", "mtp"]
    if all(number(p.get("tensor-" + n)) is not None for n in names):
        tensor = [number(p["tensor-" + n]) for n in names]
    # Where the product's QuakeML was recorded, its planes and tensor are read from there.
    quakeml = recorded.content(version, "quakeml.xml")
    if quakeml is not None:
        root = ElementTree.fromstring(quakeml)
        ns = {"q": "http://quakeml.org/xmlns/bed/1.2"}
        found = []
        for k in (1, 2):
            plane = root.find(".//q:nodalPlanes/q:nodalPlane%d" % k, ns)
            if plane is not None:
                found.append([float(plane.find("q:%s/q:value" % what, ns).text) for what in ("strike", "dip", "rake")])
        if found:
            planes = found
        t = root.find(".//q:momentTensor/q:tensor", ns)
        if t is not None:
            tensor = [float(t.find("q:%s/q:value" % n, ns).text) for n in ("Mrr", "Mtt", "Mpp", "Mrt", "Mrp", "Mtp")]
    return {
        "magnitude_type": p.get("derived-magnitude-type"),
        "magnitude": number(p.get("derived-magnitude")),
        "scalar_moment": number(p.get("scalar-moment")),
        "nodal_planes": planes if len(planes) == 2 else [],
        "tensor": tensor,
        "t_axis": [number(p.get("t-axis-azimuth")), number(p.get("t-axis-plunge"))] if p.get("t-axis-azimuth") else None,
    }


def pager(recorded, version):
    if version is None:
        return None
    level = (version["properties"].get("alertlevel") or "").lower()
    expected = {"alert": level if level in ("green", "yellow", "orange", "red") else None,
                "exposure": [], "fatality_alert": None, "economic_alert": None}
    exposures = recorded.content(version, "json/exposures.json")
    if exposures is not None:
        population = json.loads(exposures)["population_exposure"]
        expected["exposure"] = [[int(m), int(round(n))] for m, n in zip(population["mmi"], population["aggregated_exposure"])]
    alerts = recorded.content(version, "json/alerts.json")
    if alerts is not None:
        levels = json.loads(alerts)
        expected["fatality_alert"] = levels["fatality"]["level"]
        expected["economic_alert"] = levels["economic"]["level"]
    xml = recorded.content(version, "pager.xml")
    if xml is not None and exposures is None:
        root = ElementTree.fromstring(xml)
        expected["exposure"] = [[int(round((float(e.get("dmin")) + float(e.get("dmax"))) / 2)), int(e.get("exposure"))]
                                for e in root.findall("exposure")]
        for alert in root.findall("alerts/alert"):
            expected[alert.get("type") + "_alert"] = alert.get("level")
    return expected


def shakemap(recorded, version):
    if version is None:
        return None
    p = version["properties"]
    expected = {"max_mmi": number(p.get("maxmmi")),
                "max_pga": [number(p["maxpga"]), "g"] if number(p.get("maxpga")) is not None else None,
                "max_pgv": [number(p["maxpgv"]), "cm/s"] if number(p.get("maxpgv")) is not None else None,
                "stations": 0, "intensities": []}
    info = recorded.content(version, "download/info.json")
    if info is not None and (expected["max_pga"] is None or expected["max_pgv"] is None):
        motions = json.loads(info)["output"]["ground_motions"]
        pga = motions.get("PGA") or motions.get("pga")
        pgv = motions.get("PGV") or motions.get("pgv")
        expected["max_pga"] = expected["max_pga"] or [float(pga["max"]), pga["units"]]
        expected["max_pgv"] = expected["max_pgv"] or [float(pgv["max"]), pgv["units"]]
    stations = recorded.content(version, "download/stationlist.json")
    if stations is not None:
        features = [f for f in json.loads(stations)["features"] if f.get("geometry") and len(f["geometry"]["coordinates"]) >= 2]
        expected["stations"] = len(features)
        expected["intensities"] = sorted(v for v in (number(f["properties"].get("intensity")) for f in features) if v is not None)
    return expected


def tectonic(products):
    found = []
    for kind in ("tectonic-summary", "general-text"):
        for v in newest(products.get(kind, [])):
            text = content_text(v)
            if text and (kind == "tectonic-summary" or plain(text).startswith("Tectonic Summary")):
                found.append(v)
    if not found:
        return None
    best = max(found, key=lambda v: (v.get("preferredWeight", 0), v["updateTime"]))
    text = plain(content_text(best))
    return text[len("Tectonic Summary"):].strip() if text.startswith("Tectonic Summary") else text


def expected(recorded, feature):
    products = feature["properties"]["products"]
    dyfi = preferred(products, "dyfi")
    impact = preferred(products, "impact-text")
    impact_text = plain(content_text(impact)) if impact and content_text(impact) else None
    return {
        "id": feature["id"],
        "updated": feature["properties"]["updated"],
        "pager": pager(recorded, preferred(products, "losspager")),
        "shakemap": shakemap(recorded, preferred(products, "shakemap")),
        "dyfi": {"responses": int(number(dyfi["properties"].get("num-responses"))), "max_mmi": number(dyfi["properties"].get("maxmmi"))} if dyfi else None,
        "moment_tensor": mechanism(recorded, preferred(products, "moment-tensor")),
        "focal_mechanism": mechanism(recorded, preferred(products, "focal-mechanism")),
        "tectonic_summary": tectonic(products),
        "impact": impact_text or None,
    }


def main():
    directory = sys.argv[1]
    recorded = Recorded(directory)
    out = {}
    for name in sorted(os.listdir(os.path.join(directory, "events"))):
        with gzip.open(os.path.join(directory, "events", name), "rt", encoding="utf-8") as f:
            feature = json.load(f)
        out[feature["id"]] = expected(recorded, feature)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
