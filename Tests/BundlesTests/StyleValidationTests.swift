import Foundation
import QuakeBundles
import Testing
import TestSupport

/// Styles from outside (issue 46): `StyleValidator` holds a style to what MapLibre requires of
/// the parts quake-bake reads (`version` exactly 8 among them), `export --style` and `serve`
/// refuse one that fails, naming the file, and the `serve` page draws a hostile style's
/// legend without running any of it.
@Suite struct StyleValidationTests {
    static let layer = #"{"id": "dots", "type": "circle", "source": "quakes", "source-layer": "quakes"}"#
    static func style(version: String = "8", sources: String = #"{"quakes": {"type": "vector"}}"#, layers: String = "[\(layer)]") -> String {
        #"{"version": \#(version), "sources": \#(sources), "layers": \#(layers)}"#
    }

    @Test(arguments: [
        (style(version: "8.9"), "\"version\" must be 8, not 8.9"),
        (style(version: "\"8\""), "\"version\" must be 8, not \"8\""),
        (style(version: "true"), "\"version\" must be 8, not true"),
        (#"{"sources": {}, "layers": []}"#, "\"version\" must be 8, not missing"),
        ("[8]", "not a JSON object"),
        ("{\"version\": 8, \"sources\": {\"quakes\": {\"type\": \"vector\"}}, \"layers\": [", "not a JSON object"),
        (style(sources: "[]"), "\"sources\" must be an object"),
        (style(sources: "{}"), "has no \"sources\": { \"quakes\": … }"),
        (style(sources: #"{"quakes": {"type": "vector"}, "x": {"type": "tiles"}}"#), "source \"x\" has \"type\" \"tiles\", not one of"),
        (style(sources: #"{"quakes": {"type": "vector", "maxzoom": 30}}"#), "source \"quakes\": \"maxzoom\" must be a zoom 0…24, not 30"),
        (style(layers: "{}"), "\"layers\" must be an array"),
        (style(layers: "[\(layer), \(layer)]"), "layer \"dots\" is defined twice"),
        (style(layers: #"[{"id": "a", "type": "circles", "source": "quakes", "source-layer": "quakes"}]"#), "layer \"a\" has \"type\" \"circles\""),
        (style(layers: #"[{"id": "a", "type": "circle", "source": "elsewhere"}]"#), "layer \"a\" draws from source \"elsewhere\", which the style does not define"),
        (style(layers: #"[{"id": "a", "type": "circle", "source": "quakes"}]"#), "layer \"a\" draws from the vector source \"quakes\" without a \"source-layer\""),
        (style(layers: #"[{"id": "a", "type": "circle", "source": "quakes", "source-layer": "quakes", "paint": "red"}]"#), "layer \"a\": \"paint\" must be an object"),
        (style(layers: #"[{"id": "a", "type": "background", "minzoom": 9, "maxzoom": 3}]"#), "layer \"a\": \"minzoom\" 9 is above \"maxzoom\" 3"),
        (style(layers: #"[{"type": "background"}]"#), "layer 0 has no \"id\" string"),
    ])
    func styleMistakesAreNamed(text: String, message: String) {
        do {
            _ = try StyleValidator.validate(Data(text.utf8))
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func theStylesQuakeBakeWritesPass() async throws {
        let directory = TemporaryDirectory("style-valid")
        let root = try await ServeAttackTests.workspace(in: directory)
        _ = try StyleValidator.validate(try Data(contentsOf: URL(fileURLWithPath: root).appendingPathComponent("bundles/current/style.json")))
        _ = try await QuakeBakeCLI.run(["export", "--workspace", root, "--quiet", "--max-zoom", "4", "--recent-days", "30", "--out", directory.path("recent").path]).checked()
        _ = try StyleValidator.validate(try Data(contentsOf: directory.path("recent/current/style.json")))
        // A version written 8.0 is the number 8, as MapLibre reads it.
        _ = try StyleValidator.validate(Data(Self.style(version: "8.0").utf8))
    }

    /// `export --style` refuses a style of version 8.9 naming the file (exit 64); `serve`
    /// refuses a bundle whose style.json was edited to one (exit 65), before it listens.
    @Test func exportAndServeRefuseAStyleMapLibreWouldNot() async throws {
        let directory = TemporaryDirectory("style-refused")
        let root = try await ServeAttackTests.workspace(in: directory)
        let template = directory.path("mine.json")
        try Self.style(version: "8.9").write(to: template, atomically: true, encoding: .utf8)
        let export = try await QuakeBakeCLI.run(["export", "--workspace", root, "--style", template.path])
        #expect(export.status == 64 && export.standardError.contains("--style \(template.path): not a MapLibre style: \"version\" must be 8, not 8.9"),
                "\(export.standardError)")

        let bundle = directory.path("bundle")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: root).appendingPathComponent("bundles/current").resolvingSymlinksInPath(), to: bundle)
        let style = bundle.appendingPathComponent("style.json")
        try String(contentsOf: style, encoding: .utf8).replacingOccurrences(of: "\"version\":8", with: "\"version\":8.9")
            .replacingOccurrences(of: "\"version\": 8", with: "\"version\": 8.9").write(to: style, atomically: true, encoding: .utf8)
        let serve = try await QuakeBakeCLI.run(["serve", "--bundle", bundle.path, "--port", "0"])
        #expect(serve.status == 65 && serve.standardError.contains("\(style.path): not a MapLibre style: \"version\" must be 8, not 8.9"),
                "\(serve.status) \(serve.standardError)")
    }

    /// The injection of issue 46: a colour expression whose fallback is markup, in the `step`
    /// the legend reads. MapLibre accepts the style (the fallback is only a string until the
    /// expression runs); the legend of the `serve` page is drawn without it ever becoming HTML.
    @Test func aHostileStyleCannotRunScriptInTheServePage() async throws {
        let directory = TemporaryDirectory("style-injection")
        let root = try await ServeAttackTests.workspace(in: directory)
        let markup = #"\"><img src=x onerror=\"document.body.dataset.pwned=1\">"#
        let colour = ##"["step", ["coalesce", ["get", "mag"], 0], "#334455", 3, "#f00", 5, ["to-color", ["get", "x"], "\##(markup)"]]"##
        let template = directory.path("hostile.json")
        try ##"""
            {"version": 8, "sources": {"quakes": {"type": "vector"}}, "layers": [
              {"id": "clusters", "type": "circle", "source": "quakes", "source-layer": "clusters", "paint": {"circle-color": ["to-color", "\##(markup)", "#777"]}},
              {"id": "quakes", "type": "circle", "source": "quakes", "source-layer": "quakes", "paint": {"circle-color": \##(colour)}}]}
            """##.write(to: template, atomically: true, encoding: .utf8)
        _ = try await QuakeBakeCLI.run(["export", "--workspace", root, "--quiet", "--max-zoom", "4", "--style", template.path]).checked()
        let server = try ServeProcess(["--workspace", root, "--port", "0"], log: directory.path("serve.log"))
        defer { server.stop() }
        let visit = try await PreviewBrowserTests.visit(
            server.url.absoluteString + "#1/20/150",
            until: "document.body.dataset.legend && JSON.stringify([document.body.dataset.pwned || null, document.querySelectorAll('#legend *:not(.swatch)').length, document.body.dataset.legend])")
        #expect(visit.value == #"[null,0,"M <3M 3–5M ≥5"]"#, "\(visit)")
    }
}
