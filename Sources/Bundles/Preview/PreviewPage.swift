/// The page of `preview.html`: a Web Mercator map drawn on a canvas (no library, no
/// network: it opens from disk), with the data `PreviewWriter` puts in place of `__DATA__`:
/// the land, plate boundaries and heat of `style.json` (its own layers' JSON, drawn by their
/// paint properties) under the quakes.
///
/// Zoom levels are MapLibre's (a 512-pixel world at zoom 0), and at zoom z the page shows
/// the bundle's zoom z + 1, which was thinned for 256-pixel tiles: the same density a
/// map app shows. Pan by drag or arrow keys, zoom by wheel, pinch, +/− keys or buttons;
/// the view is in the URL hash (`#zoom/lat/lon`, MapLibre's convention) both ways. After
/// every draw `<body data-in-view="N">` says how many quakes are drawn in the view (tests
/// and scripts read it). Tap a quake for its details (with its ShakeMap, PAGER, moment tensor…
/// when the bundle has them: `DetailPanel`), a summary for its figures and a zoom.
enum PreviewPage {
    /// The page, with the script of the map's other layers (`PreviewMapScript`) in place.
    static let template = page.replacingOccurrences(of: "__MAP_LAYERS__\n", with: PreviewMapScript.script)

    private static let page = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>__TITLE__ — quake-bake preview</title>
        <style>
          html, body { margin: 0; height: 100%; font: 14px system-ui, sans-serif; background: #0d1b2a; color: #e0e6ed; overflow: hidden; }
          #map { position: absolute; inset: 0; width: 100%; height: 100%; touch-action: none; cursor: grab; }
          header { position: absolute; top: 8px; left: 8px; right: 8px; display: flex; gap: 12px; align-items: center; flex-wrap: wrap;
                   background: rgba(13, 27, 42, 0.85); padding: 6px 10px; border-radius: 6px; pointer-events: none; }
          header > * { pointer-events: auto; }
          h1 { font-size: 15px; margin: 0; }
          .legend span.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin: 0 3px 0 8px; }
          .legend span.swatch.line { width: 14px; height: 2px; border-radius: 1px; vertical-align: middle; }
          #attribution { position: absolute; right: 8px; bottom: 96px; font-size: 11px; color: #c5ced8; background: rgba(13, 27, 42, 0.9); z-index: 1;
                         padding: 1px 6px; border-radius: 4px; }
          #zoombox { position: absolute; right: 10px; bottom: 110px; display: flex; flex-direction: column; gap: 4px; }
          #zoombox button { width: 34px; height: 34px; font-size: 20px; border-radius: 6px; border: 0; background: #1b2d42; color: #e0e6ed; }
          #time { position: absolute; left: 8px; right: 8px; bottom: 8px; background: rgba(13, 27, 42, 0.85); padding: 6px 10px; border-radius: 6px; }
          #histogram { width: 100%; height: 40px; display: block; }
          #slider { width: 100%; margin: 0; }
          #panel { position: absolute; top: 56px; right: 10px; width: 290px; background: rgba(13, 27, 42, 0.95); border: 1px solid #243447;
                   border-radius: 6px; padding: 10px 12px; display: none; max-height: calc(100% - 190px); overflow: auto; }
        \#(DetailPanel.style)
          #panel h2 { font-size: 15px; margin: 0 0 6px; }
          #panel dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 0; }
          #panel dt { color: #9aa5b1; }
          #panel dd { margin: 0; }
          #panel a { color: #4cc9f0; }
          #close { float: right; background: none; border: 0; color: #9aa5b1; font-size: 16px; cursor: pointer; }
        </style>
        </head>
        <body data-in-view="0">
        <canvas id="map"></canvas>
        <header>
          <h1>__TITLE__</h1>
          <span id="count"></span>
          <span class="legend" id="legend"></span>
        </header>
        <div id="attribution"></div>
        <div id="zoombox"><button id="zoomin" title="Zoom in (+)">+</button><button id="zoomout" title="Zoom out (−)">−</button></div>
        <div id="panel"><button id="close" title="Close">×</button><div id="details"></div></div>
        <div id="time"><canvas id="histogram"></canvas><input id="slider" type="range" min="0" max="1000" value="1000"
          aria-label="Show quakes up to"><span id="until"></span></div>
        <script id="data" type="application/json">__DATA__</script>
        <script>\#(DetailPanel.script)</script>
        <script>
        "use strict";
        const data = JSON.parse(document.getElementById("data").textContent);
        const canvas = document.getElementById("map"), ctx = canvas.getContext("2d");
        const slider = document.getElementById("slider"), panel = document.getElementById("panel");
        const bands = data.legend.bands.slice().reverse().map((b, i, all) => [i == all.length - 1 ? -Infinity : b.from, b.colour]);
        const colour = m => m === null ? data.legend.unknown : bands.find(b => m >= b[0])[1];
        // The legend, built with DOM properties: no value is ever parsed as HTML.
        const swatch = (property, value, label, kind) => {
          const mark = document.createElement("span");
          mark.className = kind ? `swatch ${kind}` : "swatch";
          mark.style.setProperty(property, value);
          document.getElementById("legend").append(mark, document.createTextNode(label));
        };
        data.legend.bands.forEach(b => swatch("background", b.colour, `M ${b.label}`));
        swatch("background", `radial-gradient(${data.legend.cluster}, transparent)`, "more, hidden at this zoom");
        // The recent layer, drawn whole at every zoom and ringed in white.
        if (data.recentSince !== null) {
          swatch("box-shadow", "inset 0 0 0 1.5px #f8fafc", `since ${new Date(data.recentSince * 1000).toISOString().slice(0, 10)}, all shown`);
        }
        mapLegend(swatch);
        document.getElementById("attribution").textContent = data.map.attribution.join(" · ");
        const maxZoom = 18, minZoom = 0;
        const view = { zoom: 1, lat: 20, lon: 150 };
        let drawn = [], drawnClusters = [];

        // Web Mercator, MapLibre's zoom: the world is 512 * 2^zoom pixels wide.
        const worldSize = z => 512 * Math.pow(2, z);
        const projectX = (lon, w) => (lon + 180) / 360 * w;
        const projectY = (lat, w) => {
          const s = Math.sin(Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI / 180);
          return (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * w;
        };
        const unprojectY = (y, w) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y / w))) * 180 / Math.PI);
        // The horizontal shifts of the copies of the world a view `width` pixels wide shows.
        function worldShifts(width) {
          const w = worldSize(view.zoom);
          return w < width * 2 ? [-w, 0, w] : [0];
        }
        function toScreen(lon, lat) {
          const w = worldSize(view.zoom), width = canvas.clientWidth, height = canvas.clientHeight;
          let dx = projectX(lon, w) - projectX(view.lon, w);
          dx -= w * Math.round(dx / w);
          return [width / 2 + dx, height / 2 + projectY(lat, w) - projectY(view.lat, w)];
        }
        function moveBy(dx, dy) {
          const w = worldSize(view.zoom);
          const y = Math.max(0, Math.min(w, projectY(view.lat, w) + dy));
          view.lat = unprojectY(y, w);
          view.lon = ((view.lon + dx / w * 360 + 540) % 360) - 180;
          changed();
        }
        function zoomAround(z, sx, sy) {
          z = Math.max(minZoom, Math.min(maxZoom, z));
          const width = canvas.clientWidth, height = canvas.clientHeight;
          const w0 = worldSize(view.zoom), w1 = worldSize(z);
          const wx = projectX(view.lon, w0) + (sx - width / 2), wy = projectY(view.lat, w0) + (sy - height / 2);
          const nx = wx * w1 / w0 - (sx - width / 2), ny = wy * w1 / w0 - (sy - height / 2);
          view.zoom = z;
          view.lon = ((nx / w1 * 360 + 540) % 360) - 180;
          view.lat = unprojectY(Math.max(0, Math.min(w1, ny)), w1);
          changed();
        }

        // The data zoom for the view: the bundle's zoom + 1 (256-pixel thinning), as far as carried.
        function layerFor(zoom) {
          let best = null;
          for (const z of data.zooms) if (z.zoom <= Math.floor(zoom) + 1 && (!best || z.zoom > best.zoom)) best = z;
          return best || data.zooms[0] || null;
        }
        const radiusAt = (small, large, m) => small + (large - small) * (Math.pow(1.5, Math.max(0, Math.min(9, m))) - 1) / (Math.pow(1.5, 9) - 1);
        function radius(mag) {
          const m = mag === null ? 0 : mag, z = view.zoom;
          const stops = [[0, 1.5, 9], [6, 2.5, 16], [12, 4, 28]];
          if (z <= 0) return radiusAt(1.5, 9, m);
          for (let i = 1; i < stops.length; i++) {
            if (z <= stops[i][0]) {
              const [z0, s0, l0] = stops[i - 1], [z1, s1, l1] = stops[i], t = (z - z0) / (z1 - z0);
              return (1 - t) * radiusAt(s0, l0, m) + t * radiusAt(s1, l1, m);
            }
          }
          return radiusAt(4, 28, m);
        }
        const until = () => data.first + (data.last - data.first) * slider.value / 1000;

        function draw() {
          const width = canvas.clientWidth, height = canvas.clientHeight, ratio = window.devicePixelRatio || 1;
          if (canvas.width != width * ratio || canvas.height != height * ratio) { canvas.width = width * ratio; canvas.height = height * ratio; }
          ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
          ctx.fillStyle = data.legend.background; ctx.fillRect(0, 0, width, height);
          drawMapLayers(width, height);
          const layer = layerFor(view.zoom), limit = until();
          document.getElementById("until").textContent = "up to " + new Date(limit * 1000).toISOString().slice(0, 10);
          drawn = []; drawnClusters = [];
          // Every copy of the world in view, as the map layers are drawn.
          const shifts = worldShifts(width);
          const shown = new Set();
          if (layer) {
            // Summaries: soft glows under the quakes, as style.json draws them (circle-blur 1).
            for (const c of layer.clusters) {
              if (c[4] > limit) continue;
              const [x0, y] = toScreen(c[0], c[1]);
              const r = 8 + 28 * Math.log(c[2]) / 12;
              for (const shift of shifts) {
                const x = x0 + shift;
                if (x < -r || y < -r || x > width + r || y > height + r) continue;
                const glow = ctx.createRadialGradient(x, y, 0, x, y, r);
                glow.addColorStop(0, data.legend.cluster); glow.addColorStop(1, data.legend.cluster + "00");
                ctx.fillStyle = glow; ctx.globalAlpha = 0.55;
                ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fill();
                drawnClusters.push([x, y, r, c]);
              }
            }
            ctx.globalAlpha = 0.85; ctx.strokeStyle = data.legend.background; ctx.lineWidth = 0.5;
            // Biggest last, so on top.
            const events = layer.events.map(i => data.ev[i]).filter(e => e[3] <= limit).sort((a, b) => (a[2] ?? -99) - (b[2] ?? -99));
            for (const e of events) {
              const [x0, y] = toScreen(e[0], e[1]), r = radius(e[2]);
              for (const shift of shifts) {
                const x = x0 + shift;
                if (x < -r || y < -r || x > width + r || y > height + r) continue;
                ctx.fillStyle = colour(e[2]);
                // The recent layer's quakes (--recent-days) ringed in white, as style.json draws them.
                const recent = data.recentSince !== null && e[3] >= data.recentSince;
                ctx.strokeStyle = recent ? "#f8fafc" : data.legend.background; ctx.lineWidth = recent ? 1 : 0.5;
                ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
                drawn.push([x, y, r, e]);
                shown.add(e);
              }
            }
            ctx.globalAlpha = 1;
          }
          if (stations.length) QuakeDetails.drawStations(ctx, toScreen, stations);
          document.body.dataset.inView = String(shown.size);
          document.getElementById("count").textContent = `${shown.size.toLocaleString()} quakes in view · ${data.events.toLocaleString()} in the bundle`
            + (layer ? ` · preview zoom ${layer.zoom}` : " · no zoom is small enough to preview");
        }

        __MAP_LAYERS__
        let scheduled = false, hashTimer = null;
        function changed() {
          if (!scheduled) { scheduled = true; requestAnimationFrame(() => { scheduled = false; draw(); }); }
          clearTimeout(hashTimer);
          hashTimer = setTimeout(() => history.replaceState(null, "", `#${view.zoom.toFixed(2)}/${view.lat.toFixed(4)}/${view.lon.toFixed(4)}`), 150);
        }
        function readHash() {
          const parts = location.hash.slice(1).split("/").map(Number);
          if (parts.length < 3 || parts.some(p => !Number.isFinite(p))) return false;
          view.zoom = Math.max(minZoom, Math.min(maxZoom, parts[0])); view.lat = Math.max(-85, Math.min(85, parts[1])); view.lon = parts[2];
          return true;
        }
        // Framed on the bundle's events when the URL names no view.
        function frame() {
          const lons = data.ev.map(e => e[0]).filter(Number.isFinite), lats = data.ev.map(e => e[1]).filter(Number.isFinite);
          if (!lons.length) return;
          const west = Math.min(...lons), east = Math.max(...lons), south = Math.min(...lats), north = Math.max(...lats);
          view.lon = (west + east) / 2; view.lat = unprojectY((projectY(north, 1) + projectY(south, 1)) / 2, 1);
          const spanX = Math.max(1e-6, (east - west) / 360), spanY = Math.max(1e-6, projectY(south, 1) - projectY(north, 1));
          const fit = Math.min(canvas.clientWidth / (512 * spanX), canvas.clientHeight / (512 * spanY)) * 0.9;
          view.zoom = Math.max(minZoom, Math.min(10, Math.log2(fit)));
        }

        // Drag, pinch, wheel, keys, buttons.
        const pointers = new Map();
        let pinch = null, moved = false;
        canvas.addEventListener("pointerdown", e => { canvas.setPointerCapture(e.pointerId); pointers.set(e.pointerId, [e.clientX, e.clientY]); moved = false; pinch = null; });
        canvas.addEventListener("pointermove", e => {
          if (!pointers.has(e.pointerId)) return;
          const [px, py] = pointers.get(e.pointerId);
          pointers.set(e.pointerId, [e.clientX, e.clientY]);
          if (pointers.size == 2) {
            const [a, b] = [...pointers.values()], distance = Math.hypot(a[0] - b[0], a[1] - b[1]);
            if (pinch) zoomAround(view.zoom + Math.log2(distance / pinch), (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
            pinch = distance; moved = true;
          } else if (pointers.size == 1) {
            if (Math.abs(e.clientX - px) + Math.abs(e.clientY - py) > 0) moved = true;
            moveBy(px - e.clientX, py - e.clientY);
          }
        });
        const release = e => { pointers.delete(e.pointerId); if (pointers.size < 2) pinch = null; };
        canvas.addEventListener("pointerup", e => { release(e); if (!moved) pick(e.clientX, e.clientY); });
        canvas.addEventListener("pointercancel", release);
        canvas.addEventListener("wheel", e => { e.preventDefault(); zoomAround(view.zoom - e.deltaY / 300, e.clientX, e.clientY); }, { passive: false });
        addEventListener("keydown", e => {
          const step = 100, width = canvas.clientWidth, height = canvas.clientHeight;
          if (e.key == "+" || e.key == "=") zoomAround(view.zoom + 1, width / 2, height / 2);
          else if (e.key == "-" || e.key == "_") zoomAround(view.zoom - 1, width / 2, height / 2);
          else if (e.key == "ArrowLeft") moveBy(-step, 0);
          else if (e.key == "ArrowRight") moveBy(step, 0);
          else if (e.key == "ArrowUp") moveBy(0, -step);
          else if (e.key == "ArrowDown") moveBy(0, step);
          else if (e.key == "Escape") closePanel();
        });
        document.getElementById("zoomin").onclick = () => zoomAround(view.zoom + 1, canvas.clientWidth / 2, canvas.clientHeight / 2);
        document.getElementById("zoomout").onclick = () => zoomAround(view.zoom - 1, canvas.clientWidth / 2, canvas.clientHeight / 2);
        document.getElementById("close").onclick = closePanel;
        addEventListener("hashchange", () => { if (readHash()) changed(); });
        addEventListener("resize", changed);
        slider.addEventListener("input", changed);

        // Tap: the quake under the finger (the biggest on top), else a summary.
        const escape = s => String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
        const when = s => { const d = new Date(s * 1000); return `${d.toISOString().replace("T", " ").slice(0, 19)} UTC<br>${d.toLocaleString()} (yours)`; };
        function pick(sx, sy) {
          for (let i = drawn.length - 1; i >= 0; i--) {
            const [x, y, r, e] = drawn[i];
            if (Math.hypot(x - sx, y - sy) <= r + 4) return showQuake(e);
          }
          for (const [x, y, r, c] of drawnClusters) {
            if (Math.hypot(x - sx, y - sy) <= r + 2) { showSummary(c); return zoomAround(view.zoom + 2, x, y); }
          }
          closePanel();
        }
        function showQuake(e) {
          const field = name => { const i = data.fields.indexOf(name); return i < 0 ? null : e[5 + i]; };
          const rows = [["Time", when(e[3])]];
          if (field("place") !== null) rows.push(["Place", escape(field("place"))]);
          if (field("depth_km") !== null) rows.push(["Depth", `${escape(field("depth_km"))} km`]);
          if (field("status") !== null) rows.push(["Status", escape(field("status"))]);
          for (const name of ["felt", "alert", "tsunami", "sig", "mag_type", "net"]) {
            const v = field(name);
            if (v !== null && !(name == "tsunami" && v == 0)) rows.push([name == "tsunami" ? "Tsunami" : name[0].toUpperCase() + name.slice(1), escape(name == "tsunami" ? "flagged" : v)]);
          }
          const type = field("event_type") || "earthquake";
          let html = `<h2>M ${e[2] === null ? "?" : e[2].toFixed(1)} ${escape(type)}</h2><dl>${rows.map(r => `<dt>${r[0]}</dt><dd>${r[1]}</dd>`).join("")}</dl>`;
          if (e[4]) html += `<p><a href="https://earthquake.usgs.gov/earthquakes/eventpage/${encodeURIComponent(e[4])}" target="_blank" rel="noopener">USGS event page (${escape(e[4])})</a></p>`;
          document.getElementById("details").innerHTML = html;
          showDetails(e);
          panel.style.display = "block";
        }
        // The quake's details (docs/details.md) under its summary, built as DOM by QuakeDetails, and
        // its ShakeMap stations drawn on the map while it is selected (<body data-stations="N">).
        let stations = [];
        function showDetails(e) {
          const detail = data.details[e[4]] || null;
          document.getElementById("details").append(QuakeDetails.render(detail));
          stations = QuakeDetails.stations(detail);
          document.body.dataset.detail = detail ? detail.id : "";
          document.body.dataset.stations = String(stations.length);
          changed();
        }
        function closePanel() {
          panel.style.display = "none";
          if (stations.length) { stations = []; document.body.dataset.stations = "0"; changed(); }
        }
        function showSummary(c) {
          if (stations.length) { stations = []; document.body.dataset.stations = "0"; changed(); }
          const day = s => new Date(s * 1000).toISOString().slice(0, 10);
          document.getElementById("details").innerHTML = `<h2>${c[2].toLocaleString()} hidden quakes</h2><dl><dt>Biggest</dt><dd>M ${c[3] === null ? "?" : c[3].toFixed(1)}</dd>`
            + `<dt>From</dt><dd>${day(c[4])}</dd><dt>To</dt><dd>${day(c[5])}</dd></dl><p>Zoomed in on them.</p>`;
          panel.style.display = "block";
        }

        // The histogram of origin times under the slider.
        function drawHistogram() {
          const h = document.getElementById("histogram"), hctx = h.getContext("2d"), ratio = window.devicePixelRatio || 1;
          h.width = h.clientWidth * ratio; h.height = h.clientHeight * ratio;
          const counts = data.histogram.counts, top = Math.max(1, ...counts), barWidth = h.width / counts.length;
          hctx.fillStyle = "#4cc9f0";
          counts.forEach((c, i) => { const bar = Math.sqrt(c / top) * h.height; hctx.fillRect(i * barWidth, h.height - bar, Math.max(1, barWidth - 0.5), bar); });
        }

        if (!readHash()) frame();
        drawHistogram();
        draw();
        // When the first picture was ready, in ms since the page began loading (for measuring).
        document.body.dataset.firstPaintMs = String(Math.round(performance.now()));
        changed();
        </script>
        </body>
        </html>

        """#
}
