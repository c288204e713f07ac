import QuakeBundleFormat
import QuakeBundles

/// The page `serve` answers at `/`: the bundle's `style.json` in MapLibre GL JS, as an app draws it
/// (its land, plate boundaries and heat included), with MapLibre's hash (`#zoom/lat/lon`), zoom buttons, a popup with a quake's
/// details and a zoom into a summary of hidden quakes. A bar above the map names the bundle, says
/// how many quakes are in view and gives the legend read from the style itself (its `quakes`
/// layer's `step` of colours by magnitude, the summaries, and the recent layer's ring and
/// boundary from `manifest.json`), so a style of the user's own is described as it draws.
/// After every move, once the map is idle, `<body data-in-view="N">` says how many quakes are
/// drawn (tests and scripts read it). A selected quake's details, when the bundle has them, show
/// in a panel beside the map, its ShakeMap stations on it (`DetailPanel`).
enum ServePage {
    static func html(title: String) -> String {
        template.replacingOccurrences(of: "__TITLE__", with: title.htmlEscaped)
    }

    private static let template = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>__TITLE__ — quake-bake serve</title>
        <link rel="stylesheet" href="/maplibre-gl.css">
        <script src="/maplibre-gl.js"></script>
        <style>
          html, body, #map { margin: 0; height: 100%; background: #0d1b2a; font: 14px system-ui, sans-serif; }
          .maplibregl-popup-content { font: 13px system-ui, sans-serif; }
          #bar { position: absolute; top: 8px; left: 8px; right: 60px; z-index: 1; padding: 6px 10px; border-radius: 6px;
                 background: rgba(13, 27, 42, 0.85); color: #e0e6ee; font-size: 13px; pointer-events: none; }
          #bar b { margin-right: 10px; }
          #bar .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin: 0 3px 0 8px; }
          #qbd-panel { position: absolute; top: 48px; left: 8px; width: 300px; max-height: calc(100% - 70px); overflow: auto; z-index: 1;
                       display: none; padding: 8px 12px; border-radius: 6px; background: rgba(13, 27, 42, 0.95); color: #e0e6ee;
                       border: 1px solid #243447; font-size: 13px; }
          #qbd-panel h2 { font-size: 14px; margin: 0; }
          #qbd-close { float: right; background: none; border: 0; color: #9aa5b1; font-size: 16px; cursor: pointer; }
        \#(DetailPanel.style)
        </style>
        </head>
        <body data-in-view="0">
        <div id="bar"><b>__TITLE__</b><span id="count"></span><span id="legend"></span></div>
        <div id="map"></div>
        <div id="qbd-panel"><button id="qbd-close" title="Close">×</button><h2 id="qbd-title"></h2><div id="qbd-body"></div></div>
        <script>\#(DetailPanel.script)</script>
        <script>
        "use strict";
        const map = new maplibregl.Map({ container: "map", style: "/\#(BundleFileName.style)", hash: true, center: [150, 20], zoom: 1 });
        map.addControl(new maplibregl.NavigationControl({ showCompass: false }));
        map.on("error", e => { document.body.dataset.error = String(e.error && e.error.message || e.error || e); console.error(document.body.dataset.error); });
        addEventListener("error", e => { document.body.dataset.error = e.message; });
        map.on("idle", () => {
          const inView = map.queryRenderedFeatures({ layers: quakeLayers() }).length;
          document.getElementById("count").textContent = `${inView.toLocaleString()} quakes in view`;
          document.body.dataset.inView = String(inView);
          document.body.dataset.idle = "1";
        });
        // The legend, as the style draws: a `step` of colours over the magnitude (thresholds at or
        // below -99 only set apart unknown magnitudes), the summaries' colour, the recent layer's ring.
        // Built with DOM properties: a style's values are never parsed as HTML (a colour could be
        // markup), and one that is not a colour leaves its swatch blank.
        map.once("styledata", async () => {
          const legend = document.getElementById("legend");
          const swatch = (property, value, label) => {
            const mark = document.createElement("span");
            mark.className = "swatch";
            if (typeof value === "string") mark.style.setProperty(property, value);
            legend.append(mark, document.createTextNode(label));
          };
          const paint = id => (map.getStyle().layers.find(l => l.id === id) || {}).paint || {};
          const colour = paint("quakes")["circle-color"];
          if (Array.isArray(colour) && colour[0] === "step") {
            const stops = [];
            for (let i = 3; i + 1 < colour.length; i += 2) stops.push([Number(colour[i]), colour[i + 1]]);
            const real = stops.filter(s => s[0] > -99), below = stops.filter(s => s[0] <= -99).pop();
            if (real.length) swatch("background", below ? below[1] : colour[2], `M <${real[0][0]}`);
            real.forEach((s, i) => swatch("background", s[1], i + 1 < real.length ? `M ${s[0]}–${real[i + 1][0]}` : `M ≥${s[0]}`));
          }
          const summaries = paint("clusters")["circle-color"];
          if (typeof summaries === "string") swatch("background", `radial-gradient(${summaries}, transparent)`, "more, hidden at this zoom");
          if (map.getLayer("recent")) {
            const manifest = await (await fetch("/\#(BundleFileName.manifest)")).json();
            if (manifest.recent) swatch("box-shadow", "inset 0 0 0 1.5px #f8fafc", `since ${String(manifest.recent.since).slice(0, 10)}, all shown`);
          }
          document.body.dataset.legend = legend.textContent;
        });
        const escape = s => String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
        // The tiles' quakes, and the recent layer's when the bundle has one (`--recent-days`).
        const quakeLayers = () => ["quakes", "recent"].filter(id => map.getLayer(id));
        const showQuake = e => {
          const p = e.features[0].properties, t = new Date(p.time);
          const rows = [["Time", `${t.toISOString().replace("T", " ").slice(0, 19)} UTC<br>${t.toLocaleString()}`]];
          if (p.place) rows.push(["Place", escape(p.place)]);
          if (p.depth_km !== undefined) rows.push(["Depth", `${escape(p.depth_km)} km`]);
          if (p.status) rows.push(["Status", escape(p.status)]);
          if (p.alert) rows.push(["Alert", escape(p.alert)]);
          if (p.tsunami) rows.push(["Tsunami", "flagged"]);
          let html = `<b>M ${p.mag === undefined ? "?" : Number(p.mag).toFixed(1)} ${escape(p.event_type || "earthquake")}</b><br>`
            + rows.map(r => `${r[0]}: ${r[1]}`).join("<br>");
          if (p.id) html += `<br><a href="https://earthquake.usgs.gov/earthquakes/eventpage/${encodeURIComponent(p.id)}" target="_blank" rel="noopener">USGS event page</a>`;
          new maplibregl.Popup().setLngLat(e.lngLat).setHTML(html).addTo(map);
          showDetails(p.id, `M ${p.mag === undefined ? "?" : Number(p.mag).toFixed(1)} ${p.place || ""}`);
        };
        // The selected quake's details (docs/details.md: the bundle's details/<id>.json) in a panel
        // built by QuakeDetails, and its ShakeMap stations drawn on the map while it is selected
        // (<body data-detail="ID" data-stations="N">).
        async function showDetails(id, title) {
          let detail = null;
          if (id) {
            const answer = await fetch(`/details/${encodeURIComponent(id)}.json`);
            if (answer.ok) detail = await answer.json();
          }
          document.getElementById("qbd-title").textContent = title;
          document.getElementById("qbd-body").replaceChildren(QuakeDetails.render(detail));
          document.getElementById("qbd-panel").style.display = detail ? "block" : "none";
          setStations(QuakeDetails.stations(detail));
          document.body.dataset.detail = detail ? detail.id : "";
        }
        function setStations(list) {
          const data = QuakeDetails.stationsGeoJSON(list);
          if (map.getSource("qbd-stations")) {
            map.getSource("qbd-stations").setData(data);
          } else {
            map.addSource("qbd-stations", { type: "geojson", data });
            map.addLayer({ id: "qbd-stations", type: "circle", source: "qbd-stations",
                           paint: { "circle-radius": 4.5, "circle-color": ["get", "colour"], "circle-stroke-color": "#0d1b2a", "circle-stroke-width": 1 } });
          }
          document.body.dataset.stations = String(list.length);
        }
        document.getElementById("qbd-close").onclick = () => {
          document.getElementById("qbd-panel").style.display = "none";
          document.body.dataset.detail = "";
          setStations([]);
        };
        map.on("click", "quakes", showQuake);
        map.on("click", "recent", showQuake);
        map.on("click", "clusters", e => {
          const p = e.features[0].properties;
          new maplibregl.Popup().setLngLat(e.lngLat).setHTML(`<b>${Number(p.point_count).toLocaleString()} hidden quakes</b><br>biggest M ${escape(p.max_mag)}`).addTo(map);
          map.easeTo({ center: e.lngLat, zoom: Math.min(map.getMaxZoom(), map.getZoom() + 2) });
        });
        for (const layer of ["quakes", "recent", "clusters"]) {
          map.on("mouseenter", layer, () => { map.getCanvas().style.cursor = "pointer"; });
          map.on("mouseleave", layer, () => { map.getCanvas().style.cursor = ""; });
        }
        </script>
        </body>
        </html>

        """#
}
