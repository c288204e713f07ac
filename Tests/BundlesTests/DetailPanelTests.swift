import Foundation
import QuakeCommon
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The quake's panel with its details (issue 47), as a person sees it in headless Chromium: in
/// `preview.html` opened from disk and in `quake-bake serve`. The bundle is baked from the
/// recorded quakes (data/detail) served by the stand-in.
@Suite(.serialized, .tags(.renderer), .unlessSkipped(.renderer)) struct DetailPanelTests {
    /// A workspace baked from the recorded quakes and their details; the bundle is `ws/bundles/current`.
    /// With `injecting`, Bougainville's tectonic summary starts with markup written as text (`&lt;img …&gt;`),
    /// which is `<img …>` once the HTML is read: it must show as those characters, never become an element.
    static func recordedBundle(_ directory: TemporaryDirectory, injecting: Bool = false) async throws -> String {
        let standIn = try StandInProcess(catalogs: TestData.recordedDetails, details: TestData.details)
        if injecting {
            let recorded = try Gzip.decompress(try Data(contentsOf: TestData.details.appendingPathComponent("events/us10007uph.geojson.gz")))
            let text = String(decoding: recorded, as: UTF8.self).replacingOccurrences(
                of: "<h2>Tectonic Summary</h2>\\n<p>\\nThe", with: #"<h2>Tectonic Summary</h2>\n<p>\n&lt;img src=x onerror=&quot;window.qbInjected=1&quot;&gt; The"#)
            #expect(text.utf8.count > recorded.count, "the text was changed")
            _ = try await standIn.admin("POST", "details", body: Data(text.utf8))
        }
        let root = directory.path("ws").path
        _ = try await QuakeBakeCLI.run(["bake", "--workspace", root, "--service", standIn.baseURL.absoluteString, "--start", "1990-01-01",
                                        "--end", "2021-01-01", "--max-zoom", "8", "--retry-delay", "0.01", "--quiet"]).checked()
        return root
    }

    /// Once the page has drawn, picks the quake `id` where it is drawn (as a tap would), then evaluates `check`.
    static func picking(_ id: String, then check: String) -> String {
        """
        (() => { if (!document.body.dataset.inView) return ""; if (!window.qbPicked) { const e = data.ev.find(e => e[4] == "\(id)");
          const [x, y] = toScreen(e[0], e[1]); pick(x, y); window.qbPicked = true; return ""; }
          if (document.body.dataset.detail !== "\(id)") return ""; return \(check); })()
        """
    }

    /// What the panel shows, as JSON text: the PAGER badge's colour, the exposure bars' colours and
    /// intensities, the plain texts, and whether any element came from the details' text.
    static let panelFacts = """
        JSON.stringify({ stations: Number(document.body.dataset.stations),
          pager: (() => { const p = document.querySelector("#details .qbd-pager"); return p ? getComputedStyle(p).backgroundColor : null; })(),
          bars: [...document.querySelectorAll("#details .qbd-exposure .qbd-bar")].map(b => getComputedStyle(b).backgroundColor),
          badges: [...document.querySelectorAll("#details .qbd-exposure .qbd-mmi")].map(b => b.textContent),
          texts: [...document.querySelectorAll("#details .qbd-text")].map(t => t.textContent),
          balls: document.querySelectorAll("#details svg.qbd-beachball").length,
          foreign: document.querySelectorAll("#details img, #details script, #details iframe").length,
          links: [...document.querySelectorAll("#details .qbd a")].map(a => a.href) })
        """

    struct Facts: Decodable {
        let stations: Int, pager: String?, bars: [String], badges: [String], texts: [String], balls: Int, foreign: Int, links: [String]
    }

    static func facts(_ visit: PreviewBrowserTests.Visit) throws -> Facts {
        let value = try #require(visit.value)
        return try JSONDecoder().decode(Facts.self, from: Data(value.utf8))
    }

    @Test func thePreviewShowsHokkaidosPagerExposureBeachballAndTectonicSummary() async throws {
        let directory = TemporaryDirectory("panel-preview")
        let root = try await Self.recordedBundle(directory)
        let page = URL(fileURLWithPath: root).appendingPathComponent("bundles/current/preview.html").absoluteString
        let shot = directory.path("hokkaido.png")
        let visit = try await PreviewBrowserTests.visit(page + "#7/42.69/141.5", until: Self.picking("us2000h8ty", then: Self.panelFacts), screenshot: shot)
        #expect(visit.errors.isEmpty, "\(visit.errors)")
        let facts = try Self.facts(visit)
        #expect(facts.pager == "rgb(255, 153, 0)", "PAGER's orange: \(facts)")
        // People exposed per intensity, from json/exposures.json: III to IX, each bar in ShakeMap's colour of its intensity.
        #expect(facts.badges == ["III", "IV", "V", "VI", "VII", "VIII", "IX"])
        #expect(facts.bars == ["rgb(160, 230, 255)", "rgb(128, 255, 255)", "rgb(122, 255, 147)", "rgb(255, 255, 0)", "rgb(255, 200, 0)",
                               "rgb(255, 145, 0)", "rgb(255, 0, 0)"])
        #expect(facts.balls == 1 && facts.stations == 0)
        #expect(facts.texts.contains { $0.hasPrefix("The September 5, 2018, M 6.6 earthquake east of Tomakomai") })
        #expect(facts.links.allSatisfy { $0.hasPrefix("https://earthquake.usgs.gov/earthquakes/eventpage/us2000h8ty") } && facts.links.count >= 4)
        let picture = try JSONDecoder().decode([String: Int].self, from: await WitnessScript.run(
            "picture_witness.py", [shot.path, "orange=#ff9900", "beachball=#d1495b", "bars=#a0e6ff,#80ffff,#7aff93,#ffc800,#ff9100"]))
        #expect((picture["orange"] ?? 0) >= 300 && (picture["beachball"] ?? 0) >= 500 && (picture["bars"] ?? 0) >= 300, "\(picture)")
    }

    @Test func thePreviewDrawsTheStationsOfTheSelectedQuake() async throws {
        let directory = TemporaryDirectory("panel-stations")
        let root = try await Self.recordedBundle(directory)
        let page = URL(fileURLWithPath: root).appendingPathComponent("bundles/current/preview.html").absoluteString
        let selected = directory.path("selected.png"), closed = directory.path("closed.png")
        let visit = try await PreviewBrowserTests.visit(page + "#7/40.6/-124.4", until: Self.picking("nc72852151", then: Self.panelFacts), screenshot: selected)
        let facts = try Self.facts(visit)
        // The recorded download/stationlist.json: 398 stations, 352 with an intensity, drawn in their intensity's colour.
        #expect(facts.stations == 352, "\(facts)")
        #expect(facts.pager == "rgb(0, 176, 79)" && facts.badges == ["I", "II", "III"])
        #expect(facts.balls == 2, "the moment tensor (drawn from its tensor) and the focal mechanism")
        let unselected = try await PreviewBrowserTests.visit(page + "#7/40.6/-124.4", until: Self.picking("nc72852151", then: """
            (() => { if (!window.qbClosed) { document.getElementById("close").click(); window.qbClosed = true;
              return ""; } return document.body.dataset.stations === "0" && "closed"; })()
            """), screenshot: closed)
        #expect(unselected.value == "closed")
        // Stations of intensity I–III (ShakeMap's white, lilac, light blue) over the land, gone with the panel.
        let colours = ["stations=#bfccff,#a0e6ff"]
        let before = try JSONDecoder().decode([String: Int].self, from: await WitnessScript.run("picture_witness.py", [selected.path] + colours))
        let after = try JSONDecoder().decode([String: Int].self, from: await WitnessScript.run("picture_witness.py", [closed.path] + colours))
        #expect((before["stations"] ?? 0) >= (after["stations"] ?? 0) + 300, "before \(before), after \(after)")
    }

    @Test func textFromOutsideIsNeverHTML() async throws {
        let directory = TemporaryDirectory("panel-text")
        let root = try await Self.recordedBundle(directory, injecting: true)
        let page = URL(fileURLWithPath: root).appendingPathComponent("bundles/current/preview.html").absoluteString
        let visit = try await PreviewBrowserTests.visit(page + "#7/-6.25/155.17", until: Self.picking("us10007uph", then: Self.panelFacts))
        let facts = try Self.facts(visit)
        #expect(facts.texts.contains { $0.hasPrefix(#"<img src=x onerror="window.qbInjected=1"> The January 22nd, 2017"#) }, "\(facts.texts)")
        #expect(facts.foreign == 0)
        let injected = try await PreviewBrowserTests.visit(page + "#7/-6.25/155.17", until: Self.picking("us10007uph", then: "String(window.qbInjected === undefined)"))
        #expect(injected.value == "true" && visit.errors.isEmpty, "\(injected) \(visit.errors)")
    }

    /// Every recorded quake's beachball puts its tension (T) axis, as USGS gives it, in a shaded
    /// (compressional) quadrant and its pressure (P) axis in a white one.
    @Test func eachBeachballShadesTheQuadrantOfItsTensionAxis() async throws {
        let directory = TemporaryDirectory("panel-balls")
        let root = try await Self.recordedBundle(directory)
        let page = URL(fileURLWithPath: root).appendingPathComponent("bundles/current/preview.html").absoluteString
        let visit = try await PreviewBrowserTests.visit(page, until: """
            (() => { const out = []; for (const [id, d] of Object.entries(data.details)) for (const m of [d.moment_tensor, d.focal_mechanism]) {
              if (!m || !m.t_axis || !m.p_axis) continue; const ball = QuakeDetails.beachball(m, 200); if (!ball) continue;
              document.body.append(ball); const path = ball.querySelector(".qbd-compression");
              const inside = a => { const [x, y] = QuakeDetails.project(a.azimuth, a.plunge, 200); return path.isPointInFill(new DOMPoint(x, y)); };
              out.push([id, m.code, inside(m.t_axis), inside(m.p_axis)]); ball.remove(); }
              return JSON.stringify(out); })()
            """)
        let value = try #require(visit.value)
        let balls = try #require(try JSONSerialization.jsonObject(with: Data(value.utf8)) as? [[Any]])
        #expect(balls.count >= 10, "\(balls)")
        for ball in balls {
            #expect(ball[2] as? Bool == true && ball[3] as? Bool == false, "\(ball)")
        }
    }

    @Test func serveShowsTheDetailsPanelAndTheStationsOfTheSelectedQuake() async throws {
        let directory = TemporaryDirectory("panel-serve")
        let root = try await Self.recordedBundle(directory)
        let server = try ServeProcess(["--workspace", root, "--port", "0", "--quiet"], log: directory.path("serve.log"))
        defer { server.stop() }
        let base = server.url
        let (file, response) = try await URLSession(configuration: .ephemeral).data(from: URL(string: "details/nc72852151.json", relativeTo: base)!)
        let served = try JSONSerialization.jsonObject(with: file) as? [String: Any]
        #expect((response as? HTTPURLResponse)?.statusCode == 200 && served?["id"] as? String == "nc72852151")
        for missing in ["details/nothere.json", "details/..%2Fmanifest.json", "details/a.b.json"] {
            let (_, answer) = try await URLSession(configuration: .ephemeral).data(from: URL(string: missing, relativeTo: base)!)
            #expect((answer as? HTTPURLResponse)?.statusCode == 404, "\(missing)")
        }
        // A tap on the quake where MapLibre draws it (mouse down, up, click on the map's canvas).
        let shot = directory.path("serve.png")
        let visit = try await PreviewBrowserTests.visit(base.absoluteString + "#7/40.6/-124.4", until: """
            (() => { if (!document.body.dataset.idle) return ""; if (!window.qbTapped) { const canvas = map.getCanvas(), box = canvas.getBoundingClientRect();
              const p = map.project([-125.1806667, 40.7821667]), at = { clientX: box.left + p.x, clientY: box.top + p.y, bubbles: true, button: 0 };
              for (const type of ["mousedown", "mouseup", "click"]) canvas.dispatchEvent(new MouseEvent(type, at));
              window.qbTapped = true; return ""; }
              if (document.body.dataset.detail !== "nc72852151" || !map.loaded()) return "";
              const drawn = map.queryRenderedFeatures({ layers: ["qbd-stations"] }).length;
              return drawn > 0 && JSON.stringify({ drawn, stations: Number(document.body.dataset.stations),
                pager: getComputedStyle(document.querySelector("#qbd-panel .qbd-pager")).backgroundColor }); })()
            """, screenshot: shot)
        #expect(visit.errors.isEmpty, "\(visit.errors)")
        let value = try #require(visit.value)
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(value.utf8)) as? [String: Any])
        #expect(facts["stations"] as? Int == 352 && (facts["drawn"] as? Int ?? 0) >= 30, "\(facts)")
        #expect(facts["pager"] as? String == "rgb(0, 176, 79)")
    }
}
