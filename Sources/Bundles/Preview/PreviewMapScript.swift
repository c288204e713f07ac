/// The script of `preview.html`'s map layers besides the quakes (put in `PreviewPage`): it draws
/// `style.json`'s own land, plate-boundaries and heat layers (the page's `data.map.layers`, the
/// JSON `MapLayers` writes into both) by their paint properties, on the page's canvas, and
/// gives their legend.
enum PreviewMapScript {
    static let script = #"""
        // The legend of the map's other layers (data.map.layers): the heat and the plate boundaries.
        // The legend's lines for the map's own layers, built with DOM properties like the rest.
        function mapLegend(swatch) {
          const layer = id => data.map.layers.find(l => l.id === id);
          if (layer("heat")) swatch("background", "radial-gradient(#ffffff, #778899 60%, transparent)", `how many quakes (zoom 0–${layer("heat").maxzoom - 1})`);
          if (layer("plate-boundaries")) swatch("background", layer("plate-boundaries").paint["line-color"], "plate boundary", "line");
        }
        // The map's layers besides the quakes: style.json's own land, plate-boundaries and heat
        // layers (data.map.layers, the same JSON: MapLayers), drawn by their paint properties.
        const mapLayer = id => data.map.layers.find(l => l.id === id);
        // The expressions those layers use: literals, ["get", name], ["coalesce", …] and
        // ["interpolate", ["linear"], ["zoom"] or ["heatmap-density"], stop, value, …] of numbers or colours.
        function evaluate(value, input) {
          if (!Array.isArray(value)) return value;
          if (value[0] === "get") return input.properties[value[1]];
          if (value[0] === "coalesce") { for (const v of value.slice(1)) { const e = evaluate(v, input); if (e !== undefined && e !== null) return e; } return null; }
          if (value[0] !== "interpolate") throw new Error("the preview cannot draw " + JSON.stringify(value));
          const at = value[2][0] === "zoom" ? input.zoom : input.density, stops = value.slice(3);
          if (at <= stops[0]) return evaluate(stops[1], input);
          for (let i = 2; i < stops.length; i += 2) {
            if (at > stops[i]) continue;
            const t = (at - stops[i - 2]) / (stops[i] - stops[i - 2]), a = evaluate(stops[i - 1], input), b = evaluate(stops[i + 1], input);
            if (typeof a === "number") return a + (b - a) * t;
            const ca = rgba(a), cb = rgba(b);
            return `rgba(${ca.map((c, k) => k < 3 ? Math.round(c + (cb[k] - c) * t) : c + (cb[k] - c) * t).join(",")})`;
          }
          return evaluate(stops[stops.length - 1], input);
        }
        const rgba = c => c[0] === "#" ? [1, 3, 5].map(i => parseInt(c.slice(i, i + 2), 16)).concat(1) : c.slice(c.indexOf("(") + 1, -1).split(",").map(Number);
        // A path through [lon, lat] points, each step the short way round, once per copy of the world in view.
        function trace(points, w, height, shift, close) {
          let [x, y] = toScreen(points[0][0], points[0][1]);
          x += shift;
          ctx.moveTo(x, y);
          let previous = projectX(points[0][0], w);
          for (let i = 1; i < points.length; i++) {
            const px = projectX(points[i][0], w);
            x += px - previous; previous = px;
            ctx.lineTo(x, height / 2 + projectY(points[i][1], w) - projectY(view.lat, w));
          }
          if (close) ctx.closePath();
        }
        function drawMapLayers(width, height) {
          const z = view.zoom, w = worldSize(z), shifts = worldShifts(width);
          const land = mapLayer("land"), plates = mapLayer("plate-boundaries"), heat = mapLayer("heat");
          if (land && data.map.land) {
            ctx.fillStyle = evaluate(land.paint["fill-color"], { zoom: z }); ctx.strokeStyle = evaluate(land.paint["fill-outline-color"], { zoom: z });
            ctx.lineWidth = 1;
            for (const shift of shifts) {
              ctx.beginPath();
              for (const feature of data.map.land.features) for (const polygon of feature.geometry.coordinates) for (const ring of polygon) trace(ring, w, height, shift, true);
              ctx.fill(); ctx.stroke();
            }
          }
          if (plates && data.map.plates) {
            ctx.strokeStyle = evaluate(plates.paint["line-color"], { zoom: z }); ctx.lineWidth = evaluate(plates.paint["line-width"], { zoom: z });
            ctx.globalAlpha = evaluate(plates.paint["line-opacity"], { zoom: z }); ctx.lineJoin = ctx.lineCap = "round";
            for (const shift of shifts) {
              ctx.beginPath();
              for (const feature of data.map.plates.features) trace(feature.geometry.coordinates, w, height, shift, false);
              ctx.stroke();
            }
            ctx.globalAlpha = 1;
          }
          if (heat && !(z >= heat.maxzoom)) drawHeat(heat, width, height, shifts);
        }

        // The heat as MapLibre draws a heatmap: each cell's count (its weight) times the intensity,
        // spread by a Gaussian kernel of the layer's radius, summed, coloured by the density ramp.
        // The counts come per cell of one grid (data.map.heat.level), added up here into the
        // tiles' cells (zoom + cellBits) below it.
        let heatSums = { level: -1, cells: [] }, heatCanvas = null, heatDensity = null;
        function heatCells(level) {
          const source = data.map.heat;
          if (level >= source.level) return { level: source.level, cells: source.cells };
          if (heatSums.level !== level) {
            const shift = source.level - level, sums = new Map(), across = Math.pow(2, level);
            for (let i = 0; i < source.cells.length; i += 3) {
              const key = (source.cells[i] >> shift) * across + (source.cells[i + 1] >> shift);
              sums.set(key, (sums.get(key) || 0) + source.cells[i + 2]);
            }
            const cells = [];
            for (const [key, n] of sums) cells.push(Math.floor(key / across), key % across, n);
            heatSums = { level, cells };
          }
          return heatSums;
        }
        function drawHeat(layer, width, height, shifts) {
          const z = view.zoom, paint = layer.paint, opacity = evaluate(paint["heatmap-opacity"], { zoom: z });
          if (!(opacity > 0)) return;
          const scale = 2, gw = Math.ceil(width / scale), gh = Math.ceil(height / scale);
          if (!heatDensity || heatDensity.length !== gw * gh) heatDensity = new Float32Array(gw * gh); else heatDensity.fill(0);
          const density = heatDensity;
          const r = evaluate(paint["heatmap-radius"], { zoom: z }) / scale, intensity = evaluate(paint["heatmap-intensity"], { zoom: z });
          const { level, cells } = heatCells(Math.floor(z) + data.map.heat.cellBits);
          const w = worldSize(z), cell = w / Math.pow(2, level), GAUSS = 0.3989422804014327, ZERO = 1 / 255 / 16;
          // The kernel exp(-4.5 d² / r²) is a product of a row's factor and a column's: each computed once per cell.
          const along = (from, to, centre, out) => { for (let g = from; g <= to; g++) { const e = g + 0.5 - centre; out[g - from] = Math.exp(-4.5 * e * e / (r * r)); } };
          const xs = new Float32Array(gw + 1), ys = new Float32Array(gh + 1);
          for (let i = 0; i < cells.length; i += 3) {
            const weight = evaluate(paint["heatmap-weight"], { properties: { point_count: cells[i + 2] } }) * intensity * GAUSS;
            const reach = r * Math.max(1, Math.sqrt(-2 * Math.log(ZERO / weight)) / 3);
            let dx = (cells[i] + 0.5) * cell - projectX(view.lon, w);
            dx -= w * Math.round(dx / w);
            const y = (height / 2 + (cells[i + 1] + 0.5) * cell - projectY(view.lat, w)) / scale;
            if (y < -reach || y > gh + reach) continue;
            const y0 = Math.max(0, Math.floor(y - reach)), y1 = Math.min(gh - 1, Math.ceil(y + reach));
            along(y0, y1, y, ys);
            for (const shift of shifts) {
              const x = (width / 2 + dx + shift) / scale;
              if (x < -reach || x > gw + reach) continue;
              const x0 = Math.max(0, Math.floor(x - reach)), x1 = Math.min(gw - 1, Math.ceil(x + reach));
              along(x0, x1, x, xs);
              for (let gy = y0; gy <= y1; gy++) {
                const row = gy * gw, factor = weight * ys[gy - y0];
                for (let gx = x0; gx <= x1; gx++) density[row + gx] += factor * xs[gx - x0];
              }
            }
          }
          // The ramp's 256 colours (alpha as a byte), read between two as a GPU reads its ramp
          // texture (linear filtering).
          const ramp = new Float32Array(256 * 4);
          for (let k = 0; k < 256; k++) {
            const c = rgba(evaluate(paint["heatmap-color"], { density: k / 255 }));
            ramp.set([c[0], c[1], c[2], c[3] * 255], k * 4);
          }
          if (!heatCanvas) heatCanvas = document.createElement("canvas");
          heatCanvas.width = gw; heatCanvas.height = gh;
          const heatContext = heatCanvas.getContext("2d"), image = heatContext.createImageData(gw, gh), pixels = image.data;
          for (let g = 0; g < density.length; g++) {
            if (!(density[g] > 0)) continue;
            const k = Math.min(255, density[g] * 255), i = Math.min(254, Math.floor(k)), f = k - i;
            for (let n = 0; n < 4; n++) pixels[g * 4 + n] = ramp[i * 4 + n] + (ramp[i * 4 + 4 + n] - ramp[i * 4 + n]) * f;
          }
          heatContext.putImageData(image, 0, 0);
          ctx.globalAlpha = opacity;
          ctx.drawImage(heatCanvas, 0, 0, gw * scale, gh * scale);
          ctx.globalAlpha = 1;
        }

        """#
}
