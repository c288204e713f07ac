import Foundation
import Testing
import TestSupport

/// `preview.html` opened from disk in a real browser (headless Chromium, no network), as a
/// person would (issue 15): a map with land, framed by the URL hash, that says how many
/// quakes it draws in the view: many over Japan, next to none over central Brazil, and no
/// script errors.
@Suite struct PreviewBrowserTests {
    struct Picture: Decodable {
        let land: Int
        let quake: Int
        let pixels: Int
    }

    /// Chromium's `--dump-dom` of `page` and its log (console messages included).
    static func open(_ page: URL, hash: String, screenshot: URL? = nil) async throws -> (dom: String, log: String) {
        var arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,900", "--virtual-time-budget=5000",
                         "--enable-logging=stderr", "--v=0", "--user-data-dir=\(FileManager.default.temporaryDirectory.path)/preview-chromium-\(getpid())"]
        arguments.append(screenshot.map { "--screenshot=\($0.path)" } ?? "--dump-dom")
        let outcome = try await ChildProcess.run("chromium", arguments + ["\(page.absoluteString)#\(hash)"])
        return (outcome.standardOutput, outcome.standardError)
    }

    static func inView(_ dom: String) throws -> Int {
        let match = try #require(dom.firstMatch(of: /data-in-view="(\d+)"/), "no data-in-view in the page")
        return try #require(Int(match.1))
    }

    @Test func thePreviewIsAMapThatShowsWhereQuakesAre() async throws {
        let directory = TemporaryDirectory("preview")
        let root = directory.path("ws").path
        _ = try await QuakeBakeCLI.run(["index", "--workspace", root, "--quiet", "--from", TestData.usgs("query-m6-1973-2023.csv.gz").path]).checked()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", root, "--quiet", "--max-zoom", "6"]).checked()
        let page = directory.path("ws/bundles/current/preview.html")

        let japan = try await Self.open(page, hash: "5/37/138")
        let brazil = try await Self.open(page, hash: "5/-12/-50")
        let (inJapan, inBrazil) = (try Self.inView(japan.dom), try Self.inView(brazil.dom))
        #expect(inJapan >= 50, "\(inJapan) quakes in view over Japan")
        #expect(inJapan >= 10 * inBrazil, "Japan \(inJapan), central Brazil \(inBrazil)")
        for log in [japan.log, brazil.log] {
            #expect(!log.contains("Uncaught") && !log.contains(":CONSOLE("), "the page logged: \(log)")
        }

        let shot = directory.path("japan.png")
        _ = try await Self.open(page, hash: "5/37/138", screenshot: shot)
        let picture = try JSONDecoder().decode(Picture.self, from: await WitnessScript.run(
            "picture_witness.py", [shot.path, "land=#1e3247", "quake=" + ["#ff7b00", "#ff2d2d", "#ffc300", "#c8e65c", "#4cc9f0", "#7b8cde"].joined(separator: ",")]))
        #expect(picture.land * 10 >= picture.pixels, "the basemap is drawn: \(picture)")
        #expect(picture.quake >= 500, "quakes are drawn: \(picture)")
    }
}
