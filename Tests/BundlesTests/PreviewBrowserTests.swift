import Foundation
import Testing
import TestSupport

/// `preview.html` opened from disk in a real browser (headless Chromium, no network), as a
/// person would (issue 15): a map with land, framed by the URL hash, that says how many
/// quakes it draws in the view: many over Japan, next to none over central Brazil, and no
/// script errors.
@Suite(.tags(.renderer), .unlessSkipped(.renderer)) struct PreviewBrowserTests {
    struct Picture: Decodable {
        let land: Int
        let quake: Int
        let pixels: Int
    }

    /// What the browser witness reports: the expression's value and the page's errors.
    struct Visit: Decodable {
        let value: String?
        let errors: [String]
    }

    /// Opens `url` in headless Chromium (Tests/Witness/browser.py) and waits for `expression`.
    static func visit(_ url: String, until expression: String, screenshot: URL? = nil) async throws -> Visit {
        try JSONDecoder().decode(Visit.self, from: await WitnessScript.run(
            "browser.py", [url, expression] + (screenshot.map { ["--screenshot", $0.path] } ?? [])))
    }

    /// A stray early event (one of 1570 among a week of 2018) does not stretch the time slider
    /// over centuries: the slider and its histogram start with the week (the stray event is shown
    /// from the slider's left end), and its middle is the middle of the week.
    @Test func aStrayEarlyEventLeavesTheTimeSliderOnTheRest() async throws {
        let directory = TemporaryDirectory("preview-stray")
        let store = try TestStore(workspace: directory.url, samples: ["feed-all_week-2018-06.geojson.gz"])
        var stray = try #require(try store.events().values.min { $0.id < $1.id })
        (stray.id, stray.ids, stray.time) = ("qbstray1570", ["qbstray1570"], -12_592_224_000_000)  // 1570-12-20
        try store.upsert([stray])
        _ = try await QuakeBakeCLI.run(["export", "--workspace", directory.url.path, "--quiet", "--max-zoom", "4"]).checked()
        let page = directory.url.appendingPathComponent("bundles/current/preview.html").absoluteString + "#1/20/-120"
        // Polled until it has a value: the first call moves the slider, a later one reads what it says
        // once the page has drawn. The page draws in the next animation frame; a frame callback asked
        // for after the slider moved runs after that drawing (callbacks run in the order asked).
        func slid(to value: Int) -> String {
            "(() => { const s = document.getElementById('slider'); if (s.value != \(value)) { s.value = \(value); s.dispatchEvent(new Event('input')); "
                + "window.qbSlid = false; requestAnimationFrame(() => { window.qbSlid = true; }); return ''; } "
                + "return window.qbSlid && document.body.dataset.inView && document.getElementById('until').textContent; })()"
        }
        let left = try await Self.visit(page, until: slid(to: 0)), middle = try await Self.visit(page, until: slid(to: 500))
        #expect(left.value?.hasPrefix("up to 2018-06-07") == true, "\(left)")
        #expect(middle.value == "up to 2018-06-10" || middle.value == "up to 2018-06-11", "\(middle)")
        #expect(left.errors.isEmpty && middle.errors.isEmpty, "\(left.errors) \(middle.errors)")
    }

    @Test func thePreviewIsAMapThatShowsWhereQuakesAre() async throws {
        let directory = TemporaryDirectory("preview")
        let root = directory.path("ws").path
        _ = try await QuakeBakeCLI.run(["index", "--workspace", root, "--quiet", "--from", TestData.usgs("query-m6-1973-2023.csv.gz").path]).checked()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", root, "--quiet", "--max-zoom", "6"]).checked()
        let page = directory.path("ws/bundles/current/preview.html")

        let drawn = "document.body.dataset.firstPaintMs && document.body.dataset.inView"
        let shot = directory.path("japan.png")
        let japan = try await Self.visit(page.absoluteString + "#5/37/138", until: drawn, screenshot: shot)
        let brazil = try await Self.visit(page.absoluteString + "#5/-12/-50", until: drawn)
        let inJapan = try #require(japan.value.flatMap { Int($0) }), inBrazil = try #require(brazil.value.flatMap { Int($0) })
        #expect(inJapan >= 50, "\(inJapan) quakes in view over Japan")
        #expect(inJapan >= 10 * inBrazil, "Japan \(inJapan), central Brazil \(inBrazil)")
        #expect(japan.errors.isEmpty && brazil.errors.isEmpty, "\(japan.errors) \(brazil.errors)")

        // Fifty years of quakes: by default the last week or two are a recent layer, all drawn and
        // ringed in white; the legend says from when.
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.path("ws/bundles/current/manifest.json"))) as? [String: Any]
        let since = try #require((manifest?["recent"] as? [String: Any])?["since"] as? String)
        let legend = try await Self.visit(page.absoluteString, until: "document.body.dataset.inView && document.getElementById('legend').textContent")
        #expect(legend.value?.contains("since \(since.prefix(10)), all shown") == true, "\(legend.value ?? "no legend")")

        let picture = try JSONDecoder().decode(Picture.self, from: await WitnessScript.run(
            "picture_witness.py", [shot.path, "land=#1e3247", "quake=" + ["#ff7b00", "#ff2d2d", "#ffc300", "#c8e65c", "#4cc9f0", "#7b8cde"].joined(separator: ",")]))
        #expect(picture.land * 10 >= picture.pixels, "the basemap is drawn: \(picture)")
        #expect(picture.quake >= 500, "quakes are drawn: \(picture)")
    }
}
