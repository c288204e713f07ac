/// The part of a quake's panel that shows its details (docs/details.md), shared by `preview.html`
/// and the page of `serve`: PAGER's alert in its colour, intensities in ShakeMap's colours, the
/// population exposed as a bar chart, the moment tensor (or focal mechanism) as a beachball drawn
/// from its nodal planes, DYFI, origin, nearby cities, the tectonic and impact summaries, links;
/// and the ShakeMap stations, which the pages draw on the map while the quake is selected.
///
/// Everything is built as DOM with `textContent` and properties: no text of the details is ever
/// parsed as HTML, and a link is followed only to USGS's own pages.
///
/// `script` defines one global, `QuakeDetails`: `render(detail)` (an element), `stations(detail)`
/// (`[{lon, lat, mmi, colour, name}]`), `drawStations(ctx, toScreen, stations)` (for a canvas),
/// `stationsGeoJSON(stations)`, `beachball(mechanism, size)` (an SVG element, or null),
/// `project(azimuth, plunge, size)` (where a direction lies on a beachball of that size) and
/// `mmiColour(mmi)`, `pagerColour(level)`.
public enum DetailPanel {
    /// The CSS of the details part (class names start with `qbd-`).
    public static let style = #"""
        .qbd { margin-top: 8px; border-top: 1px solid #243447; padding-top: 6px; font-size: 13px; }
        .qbd h3 { font-size: 13px; margin: 8px 0 3px; color: #9aa5b1; font-weight: 600; }
        .qbd .qbd-alert { display: inline-block; padding: 2px 8px; border-radius: 4px; color: #0d1b2a; font-weight: 700; }
        .qbd .qbd-mmi { display: inline-block; min-width: 22px; padding: 0 4px; border-radius: 3px; color: #0d1b2a; text-align: center; font-weight: 700; margin-right: 4px; }
        .qbd .qbd-row { margin: 2px 0; }
        .qbd .qbd-bars { display: grid; grid-template-columns: 26px 1fr auto; gap: 2px 6px; align-items: center; }
        .qbd .qbd-bar { height: 10px; border-radius: 2px; min-width: 1px; }
        .qbd .qbd-ball { display: flex; gap: 10px; align-items: center; }
        .qbd .qbd-text { white-space: pre-wrap; max-height: 160px; overflow: auto; color: #c8d2dc; }
        .qbd .qbd-note { color: #7d8a97; font-size: 11px; }
        .qbd a { color: #4cc9f0; margin-right: 8px; }
        """#

    /// The script (no library, no network).
    public static let script = #"""
        "use strict";
        const QuakeDetails = (() => {
          // ShakeMap's intensity colours (USGS), I to X+.
          const mmiScale = ["#ffffff", "#bfccff", "#a0e6ff", "#80ffff", "#7aff93", "#ffff00", "#ffc800", "#ff9100", "#ff0000", "#c80000"];
          const roman = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"];
          const pagerColours = { green: "#00b04f", yellow: "#ffff00", orange: "#ff9900", red: "#ff0000" };
          const mmiColour = mmi => mmiScale[Math.max(0, Math.min(9, Math.round(mmi) - 1))];
          const pagerColour = level => pagerColours[level] || "#9aa5b1";
          const number = (v, digits) => v === null || v === undefined ? "?" : Number(v).toLocaleString(undefined, { maximumFractionDigits: digits });
          // An element with properties (textContent, className, style…) and children: never HTML.
          function el(tag, props, ...children) {
            const node = document.createElement(tag);
            for (const [key, value] of Object.entries(props || {})) {
              if (key === "style") Object.assign(node.style, value); else node[key] = value;
            }
            for (const child of children) if (child !== null && child !== undefined) node.append(child);
            return node;
          }
          const row = (...children) => el("div", { className: "qbd-row" }, ...children);
          const badge = mmi => el("span", { className: "qbd-mmi", textContent: roman[Math.max(0, Math.min(11, Math.round(mmi) - 1))],
                                            style: { background: mmiColour(mmi) } });

          // Lower-hemisphere equal-area projection: a direction (azimuth, plunge, degrees) on a ball of `size` px.
          function project(azimuth, plunge, size) {
            const r = Math.SQRT2 * Math.sin((90 - plunge) * Math.PI / 360), a = azimuth * Math.PI / 180, half = size / 2;
            return [half + half * r * Math.sin(a), half - half * r * Math.cos(a)];
          }
          // The P-wave radiation (its sign: + compression) toward the unit vector v = [north, east, down].
          function radiation(mechanism) {
            if (mechanism.nodal_planes && mechanism.nodal_planes.length == 2) {
              const p = mechanism.nodal_planes[0], d2r = Math.PI / 180;
              const s = p.strike * d2r, d = p.dip * d2r, l = p.rake * d2r;
              const n = [-Math.sin(d) * Math.sin(s), Math.sin(d) * Math.cos(s), -Math.cos(d)];
              const u = [Math.cos(l) * Math.cos(s) + Math.cos(d) * Math.sin(l) * Math.sin(s),
                         Math.cos(l) * Math.sin(s) - Math.cos(d) * Math.sin(l) * Math.cos(s), -Math.sin(l) * Math.sin(d)];
              const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
              return v => 2 * dot(v, n) * dot(v, u);
            }
            const t = mechanism.tensor;
            if (!t) return null;
            // (r, θ, φ) = (up, south, east) to (north, east, down).
            const m = [[t.mtt, -t.mtp, t.mrt], [-t.mtp, t.mpp, -t.mrp], [t.mrt, -t.mrp, t.mrr]];
            return v => { let sum = 0; for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) sum += v[i] * m[i][j] * v[j]; return sum; };
          }
          // The beachball: the compressional quadrants shaded, found ray by ray (1°) from the centre.
          function beachball(mechanism, size) {
            const amplitude = mechanism && radiation(mechanism);
            if (!amplitude) return null;
            const ns = "http://www.w3.org/2000/svg", half = size / 2, steps = 48;
            const at = (az, k) => {  // k of steps along the ray: the equal-area radius k / steps
              const radius = k / steps, theta = 2 * Math.asin(radius / Math.SQRT2), a = az * Math.PI / 180;
              return [Math.sin(theta) * Math.cos(a), Math.sin(theta) * Math.sin(a), Math.cos(theta)];
            };
            const point = (az, k) => { const a = az * Math.PI / 180, r = half * k / steps; return `${(half + r * Math.sin(a)).toFixed(2)} ${(half - r * Math.cos(a)).toFixed(2)}`; };
            let path = "";
            for (let az = 0; az < 360; az++) {
              let start = -1;
              for (let k = 0; k <= steps; k++) {
                const inside = k < steps && amplitude(at(az + 0.5, k + 0.5)) > 0;
                if (inside && start < 0) start = k;
                if (!inside && start >= 0) {
                  path += `M${point(az, start)}L${point(az, k)}L${point(az + 1.02, k)}L${point(az + 1.02, start)}Z`;
                  start = -1;
                }
              }
            }
            const svg = document.createElementNS(ns, "svg");
            svg.setAttribute("width", size); svg.setAttribute("height", size); svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
            svg.setAttribute("class", "qbd-beachball");
            const circle = document.createElementNS(ns, "circle");
            circle.setAttribute("cx", half); circle.setAttribute("cy", half); circle.setAttribute("r", half - 0.5);
            circle.setAttribute("fill", "#ffffff"); circle.setAttribute("stroke", "#9aa5b1");
            const shaded = document.createElementNS(ns, "path");
            shaded.setAttribute("d", path); shaded.setAttribute("fill", "#d1495b"); shaded.setAttribute("class", "qbd-compression");
            svg.append(circle, shaded);
            return svg;
          }

          function stations(detail) {
            const list = detail && detail.shakemap && detail.shakemap.stations ? detail.shakemap.stations.features : [];
            return list.filter(f => f.properties.intensity !== null).map(f => ({ lon: f.geometry.coordinates[0], lat: f.geometry.coordinates[1],
              mmi: f.properties.intensity, colour: mmiColour(f.properties.intensity), name: f.properties.name || f.properties.code || "" }));
          }
          // Stations as small triangles in their intensity's colour (the preview's canvas).
          function drawStations(ctx, toScreen, list) {
            ctx.lineWidth = 0.8; ctx.strokeStyle = "#0d1b2a";
            for (const s of list) {
              const [x, y] = toScreen(s.lon, s.lat);
              ctx.fillStyle = s.colour;
              ctx.beginPath(); ctx.moveTo(x, y - 5); ctx.lineTo(x + 4.5, y + 3.5); ctx.lineTo(x - 4.5, y + 3.5); ctx.closePath();
              ctx.fill(); ctx.stroke();
            }
          }
          const stationsGeoJSON = list => ({ type: "FeatureCollection", features: list.map(s => ({ type: "Feature",
            properties: { colour: s.colour, mmi: s.mmi, name: s.name }, geometry: { type: "Point", coordinates: [s.lon, s.lat] } })) });

          function mechanismSection(title, m) {
            if (!m) return null;
            const ball = beachball(m, 76);
            const lines = el("div", {});
            if (m.magnitude !== null) lines.append(row(`${m.magnitude_type || "M"} ${m.magnitude}`));
            if (m.scalar_moment !== null) lines.append(row(`M₀ ${m.scalar_moment.toExponential(3)} N·m`));
            for (const p of m.nodal_planes) lines.append(row(`strike ${p.strike}° dip ${p.dip}° rake ${p.rake}°`));
            if (m.percent_double_couple !== null) lines.append(row(`double couple ${number(m.percent_double_couple * 100, 1)}%`));
            lines.append(el("div", { className: "qbd-note", textContent: `source ${m.source}` }));
            return el("div", {}, el("h3", { textContent: title }), el("div", { className: "qbd-ball" }, ball, lines));
          }

          function render(detail) {
            const box = el("div", { className: "qbd" });
            if (!detail) return box;
            const p = detail.pager, sm = detail.shakemap, dyfi = detail.dyfi;
            if (p) {
              box.append(el("h3", { textContent: "PAGER" }));
              if (p.alert) box.append(row(el("span", { className: "qbd-alert qbd-pager", textContent: `${p.alert} alert`, style: { background: pagerColour(p.alert) } })));
              const alerts = [["fatalities", p.fatality_alert], ["losses", p.economic_alert]].filter(a => a[1]);
              if (alerts.length) box.append(row(...alerts.flatMap(([what, level]) => [`${what}: `, el("span", { className: "qbd-alert", textContent: level, style: { background: pagerColour(level) } }), " "])));
              const exposed = p.exposure.filter(e => e.population > 0);
              if (exposed.length) {
                const top = Math.max(...exposed.map(e => e.population)), bars = el("div", { className: "qbd-bars qbd-exposure" });
                for (const e of exposed) {
                  bars.append(badge(e.mmi), el("div", { className: "qbd-bar", style: { width: `${Math.max(1, 100 * e.population / top)}%`, background: mmiColour(e.mmi) } }),
                              el("span", { textContent: number(e.population, 0) }));
                }
                box.append(el("div", { className: "qbd-note", textContent: "people exposed, by intensity" }), bars);
              }
            }
            if (sm) {
              box.append(el("h3", { textContent: "ShakeMap" }));
              if (sm.max_mmi !== null) box.append(row(badge(sm.max_mmi), `max intensity ${sm.max_mmi}`));
              const measure = (name, m) => m ? row(`${name} ${m.value} ${m.units || ""}`) : null;
              box.append(...[measure("max PGA", sm.max_pga), measure("max PGV", sm.max_pgv)].filter(Boolean));
              const n = sm.stations.features.length;
              if (n) box.append(row(`${n.toLocaleString()} stations, drawn on the map`));
            }
            if (dyfi) {
              box.append(el("h3", { textContent: "Did You Feel It?" }));
              box.append(row(dyfi.max_mmi !== null ? badge(dyfi.max_mmi) : null, `${number(dyfi.responses, 0)} responses` + (dyfi.max_mmi !== null ? `, max ${dyfi.max_mmi}` : "")));
            }
            const mt = mechanismSection("Moment tensor", detail.moment_tensor), fm = mechanismSection("Focal mechanism", detail.focal_mechanism);
            if (mt) box.append(mt);
            if (fm) box.append(fm);
            const o = detail.origin;
            if (o) {
              const parts = [o.review_status, o.stations_used !== null ? `${o.stations_used} stations` : null,
                             o.azimuthal_gap !== null ? `gap ${o.azimuthal_gap}°` : null, o.standard_error !== null ? `rms ${o.standard_error} s` : null,
                             o.horizontal_error_km !== null ? `±${o.horizontal_error_km} km` : null].filter(x => x !== null);
              box.append(el("h3", { textContent: "Origin" }), row(parts.join(" · ")));
            }
            if (detail.nearby_cities && detail.nearby_cities.length) {
              box.append(el("h3", { textContent: "Nearby cities" }));
              for (const c of detail.nearby_cities.slice(0, 5)) {
                box.append(row(`${c.name}: ${number(c.distance_km, 0)} km ${c.direction || ""}` + (c.population ? ` (${number(c.population, 0)})` : "")));
              }
            }
            for (const [title, text] of [["Impact", detail.impact], ["Tectonic summary", detail.tectonic_summary]]) {
              if (text) box.append(el("h3", { textContent: title }), el("div", { className: "qbd-text", textContent: text }));
            }
            const links = el("div", { className: "qbd-row" });
            for (const [name, url] of Object.entries(detail.links || {})) {
              if (typeof url === "string" && url.startsWith("https://earthquake.usgs.gov/")) {
                links.append(el("a", { href: url, textContent: name.replace("_", " "), target: "_blank", rel: "noopener" }));
              }
            }
            box.append(links);
            if (detail.left_out && detail.left_out.length) {
              box.append(el("div", { className: "qbd-note", textContent: "not had: " + detail.left_out.map(l => `${l.part} (${l.reason})`).join("; ") }));
            }
            return box;
          }
          return { render, stations, drawStations, stationsGeoJSON, beachball, project, mmiColour, pagerColour };
        })();
        """#
}
