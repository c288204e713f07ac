import Foundation
import QuakeTiles

/// Writes `preview.html`: a self-contained page (no network) that draws the
/// points of a chosen zoom on a world map (equirectangular, with a graticule),
/// sized and coloured by magnitude, clusters as grey discs sized by their count,
/// with a zoom selector and a time slider (events up to the chosen time).
/// It embeds the zooms that have a GeoJSON file.
enum PreviewWriter {
    static func html(name: String, layers: [ZoomLayer], table: EventTable) -> String {
        // The data is written as bytes directly: a JSON value tree of ~100,000 points would cost
        // tens of megabytes for a moment, and the export's memory budget is tight.
        var data = JSONBytes(capacity: layers.reduce(0) { $0 + ($1.events.count + $1.clusters.count) * 40 } + 256)
        func rounded(_ v: Double, _ scale: Double) {
            if v.isNaN { data.raw("null") } else { data.number((v * scale).rounded() / scale) }
        }
        data.raw("{\"name\":")
        data.string(name)
        data.raw(",\"legend\":{\"bands\":[")
        for (i, band) in MagnitudeLegend.bands.enumerated() {
            data.raw(i == 0 ? "{\"from\":" : ",{\"from\":")
            data.number(band.from)
            data.raw(",\"colour\":")
            data.string(band.colour)
            data.raw(",\"label\":")
            data.string(band.label)
            data.raw("}")
        }
        data.raw("],\"unknown\":")
        data.string(MagnitudeLegend.unknownColour)
        data.raw(",\"cluster\":")
        data.string(MagnitudeLegend.clusterColour)
        data.raw(",\"background\":")
        data.string(MagnitudeLegend.background)
        data.raw("}")
        data.raw(",\"events\":")
        data.integer(table.count)
        data.raw(",\"first\":")
        data.integer((table.time.min() ?? 0) / 1000)
        data.raw(",\"last\":")
        data.integer((table.time.max() ?? 0) / 1000)
        data.raw(",\"zooms\":[")
        for (i, layer) in layers.enumerated() {
            data.raw(i == 0 ? "{\"zoom\":" : ",{\"zoom\":")
            data.integer(layer.zoom)
            data.raw(",\"events\":[")
            for (k, e) in layer.events.enumerated() {
                data.raw(k == 0 ? "[" : ",[")
                rounded(table.longitude[e], 1000)
                data.raw(",")
                rounded(table.latitude[e], 1000)
                data.raw(",")
                rounded(table.magnitude[e], 10)
                data.raw(",")
                data.integer(table.time[e] / 1000)
                data.raw("]")
            }
            data.raw("],\"clusters\":[")
            for (k, c) in layer.clusters.enumerated() {
                let (longitude, latitude) = GeoJSONZoomWriter.position(c)
                data.raw(k == 0 ? "[" : ",[")
                rounded(longitude, 1000)
                data.raw(",")
                rounded(latitude, 1000)
                data.raw(",")
                data.integer(c.count)
                data.raw(",")
                rounded(c.maxMagnitude, 10)
                data.raw(",")
                data.integer(c.firstTime / 1000)
                data.raw("]")
            }
            data.raw("]}")
        }
        data.raw("]}")
        let text = String(decoding: data.bytes, as: UTF8.self)
        let parts = template.components(separatedBy: "__DATA__")
        return parts.map { $0.replacingOccurrences(of: "__TITLE__", with: name.htmlEscaped) }.joined(separator: text)
    }

    private static let template = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>__TITLE__ · quake-bake preview</title>
        <style>
          body { margin: 0; font: 14px system-ui, sans-serif; background: #0d1b2a; color: #e0e6ed; }
          header { display: flex; flex-wrap: wrap; gap: 1em; align-items: center; padding: 0.6em 1em; background: #1b263b; }
          header h1 { font-size: 1.1em; margin: 0 1em 0 0; }
          #slider { flex: 1; min-width: 12em; }
          canvas { display: block; width: 100%; }
          .legend span { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 50%; margin: 0 0.2em 0 0.8em; }
        </style>
        </head>
        <body>
        <header>
          <h1>__TITLE__</h1>
          <label>Zoom <select id="zoom"></select></label>
          <label for="slider">Until <b id="until"></b></label>
          <input id="slider" type="range" min="0" max="1000" value="1000">
          <span id="count"></span>
          <span class="legend" id="legend"></span>
        </header>
        <canvas id="map"></canvas>
        <script id="data" type="application/json">__DATA__</script>
        <script>
        "use strict";
        const data = JSON.parse(document.getElementById("data").textContent);
        const canvas = document.getElementById("map"), ctx = canvas.getContext("2d");
        const zoomSelect = document.getElementById("zoom"), slider = document.getElementById("slider");
        const bands = data.legend.bands.slice().reverse().map((b, i, all) => [i == all.length - 1 ? -Infinity : b.from, b.colour, b.label]);
        const colour = m => m === null ? data.legend.unknown : bands.find(b => m >= b[0])[1];
        const radius = m => m === null ? 1.5 : Math.max(1.5, Math.pow(1.6, m) / 2.5);
        document.getElementById("legend").innerHTML = bands.map(b => `<span style="background:${b[1]}"></span>${b[2]}`).join("") + `<span style="background:${data.legend.cluster}"></span>cluster`;
        for (const z of data.zooms) zoomSelect.add(new Option(`${z.zoom} (${z.events.length + z.clusters.length} features)`, z.zoom));
        if (!data.zooms.length) document.getElementById("count").textContent = "no zoom is small enough to preview";
        const untilTime = () => data.first + (data.last - data.first) * slider.value / 1000;
        function draw() {
          const width = canvas.clientWidth, height = Math.round(width / 2), ratio = window.devicePixelRatio || 1;
          canvas.width = width * ratio; canvas.height = height * ratio; canvas.style.height = height + "px";
          ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
          ctx.fillStyle = data.legend.background; ctx.fillRect(0, 0, width, height);
          const x = lon => (lon + 180) / 360 * width, y = lat => (90 - lat) / 180 * height;
          ctx.strokeStyle = "#243447"; ctx.lineWidth = 1; ctx.beginPath();
          for (let lon = -180; lon <= 180; lon += 30) { ctx.moveTo(x(lon), 0); ctx.lineTo(x(lon), height); }
          for (let lat = -90; lat <= 90; lat += 30) { ctx.moveTo(0, y(lat)); ctx.lineTo(width, y(lat)); }
          ctx.stroke();
          const layer = data.zooms.find(z => z.zoom == zoomSelect.value);
          const until = untilTime();
          document.getElementById("until").textContent = new Date(until * 1000).toISOString().slice(0, 10);
          if (!layer) return;
          let shown = 0;
          ctx.fillStyle = data.legend.cluster; ctx.globalAlpha = 0.45;
          for (const [lon, lat, count, maxMag, first] of layer.clusters) {
            if (first > until) continue;
            ctx.beginPath(); ctx.arc(x(lon), y(lat), 2 + Math.log2(count) * 1.5, 0, 2 * Math.PI); ctx.fill();
          }
          const events = layer.events.filter(e => e[3] <= until).reverse();
          for (const [lon, lat, mag] of events) {
            ctx.fillStyle = colour(mag); ctx.globalAlpha = 0.8;
            ctx.beginPath(); ctx.arc(x(lon), y(lat), radius(mag), 0, 2 * Math.PI); ctx.fill();
            shown++;
          }
          ctx.globalAlpha = 1;
          document.getElementById("count").textContent = `${shown.toLocaleString()} of ${data.events.toLocaleString()} events`;
        }
        zoomSelect.onchange = slider.oninput = draw;
        window.onresize = draw;
        draw();
        </script>
        </body>
        </html>

        """
}

extension String {
    /// The text with `&`, `<`, `>` and `"` escaped for HTML.
    var htmlEscaped: String {
        replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
