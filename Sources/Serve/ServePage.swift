import QuakeBundles

/// The page `serve` answers at `/`: the bundle's `style.json` in MapLibre GL JS, over Natural
/// Earth's land (`/basemap.json`: `Basemap`'s rings, which the page turns into GeoJSON), with MapLibre's hash (`#zoom/lat/lon`), zoom buttons, a popup with a quake's
/// details and a zoom into a summary of hidden quakes. After every move, once the map is idle,
/// `<body data-in-view="N">` says how many quakes are drawn (tests and scripts read it).
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
        </style>
        </head>
        <body data-in-view="0">
        <div id="map"></div>
        <script>
        "use strict";
        const map = new maplibregl.Map({ container: "map", style: "/style.json", hash: true, center: [150, 20], zoom: 1 });
        map.addControl(new maplibregl.NavigationControl({ showCompass: false }));
        map.on("load", async () => {
          const rings = await (await fetch("/basemap.json")).json();
          const polygon = r => { const ring = []; for (let i = 0; i < r.length; i += 2) ring.push([r[i], r[i + 1]]); return [ring]; };
          map.addSource("land", { type: "geojson", data: { type: "FeatureCollection",
            features: rings.map(r => ({ type: "Feature", properties: {}, geometry: { type: "Polygon", coordinates: polygon(r) } })) } });
          map.addLayer({ id: "land", type: "fill", source: "land", paint: { "fill-color": "#1e3247", "fill-outline-color": "#3d5a78" } }, "clusters");
        });
        map.on("error", e => { document.body.dataset.error = String(e.error && e.error.message || e.error || e); console.error(document.body.dataset.error); });
        addEventListener("error", e => { document.body.dataset.error = e.message; });
        map.on("idle", () => {
          document.body.dataset.inView = String(map.queryRenderedFeatures({ layers: quakeLayers() }).length);
          document.body.dataset.idle = "1";
        });
        const escape = s => String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
        // The tiles' quakes, and the recent layer's when the bundle has one (`--recent-days`).
        const quakeLayers = () => ["quakes", "recent"].filter(id => map.getLayer(id));
        const showQuake = e => {
          const p = e.features[0].properties, t = new Date(p.time);
          const rows = [["Time", `${t.toISOString().replace("T", " ").slice(0, 19)} UTC<br>${t.toLocaleString()}`]];
          if (p.place) rows.push(["Place", escape(p.place)]);
          if (p.depth_km !== undefined) rows.push(["Depth", `${p.depth_km} km`]);
          if (p.status) rows.push(["Status", escape(p.status)]);
          if (p.alert) rows.push(["Alert", escape(p.alert)]);
          if (p.tsunami) rows.push(["Tsunami", "flagged"]);
          let html = `<b>M ${p.mag === undefined ? "?" : Number(p.mag).toFixed(1)} ${escape(p.event_type || "earthquake")}</b><br>`
            + rows.map(r => `${r[0]}: ${r[1]}`).join("<br>");
          if (p.id) html += `<br><a href="https://earthquake.usgs.gov/earthquakes/eventpage/${encodeURIComponent(p.id)}" target="_blank" rel="noopener">USGS event page</a>`;
          new maplibregl.Popup().setLngLat(e.lngLat).setHTML(html).addTo(map);
        };
        map.on("click", "quakes", showQuake);
        map.on("click", "recent", showQuake);
        map.on("click", "clusters", e => {
          const p = e.features[0].properties;
          new maplibregl.Popup().setLngLat(e.lngLat).setHTML(`<b>${Number(p.point_count).toLocaleString()} hidden quakes</b><br>biggest M ${p.max_mag}`).addTo(map);
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
