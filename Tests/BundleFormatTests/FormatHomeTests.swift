import Foundation
import QuakeBundleFormat
import Testing
import TestSupport

/// Issue 49.2: a bundle's file names, table definitions and the PMTiles format are written
/// once, in Sources/BundleFormat; every other module names them through it. A source scan
/// (like DocumentationTests'): it fails when a bundle file name is written as a literal, a
/// bundle table or index is declared (`CREATE …`), or PMTiles' magic, header layout or varints
/// are written, anywhere else in Sources/.
@Suite struct FormatHomeTests {
    static let sources = TestData.projectRoot.appendingPathComponent("Sources")
    /// The home, relative to Sources/.
    static let home = "BundleFormat/"

    /// Every file name of a bundle the home declares.
    static let names = [
        BundleFileName.tiles, BundleFileName.pmtiles, BundleFileName.appDatabase, BundleFileName.style, BundleFileName.manifest,
        BundleFileName.timeline, BundleFileName.recent, BundleFileName.preview, BundleFileName.land, BundleFileName.plateBoundaries,
    ]

    /// Every statement that declares a table or index of a bundle file or a delta.
    static let statements = MBTiles.schema + [AppDatabaseSchema.eventsTable] + AppDatabaseSchema.eventIndexes
        + [AppDatabaseSchema.infoTable, AppDatabaseSchema.rtreeTable, AppDatabaseSchema.detailsTable, DeltaSchema.infoTable,
           DeltaSchema.deletedTilesTable, DeltaSchema.deletedTilesIndex, DeltaSchema.rtreeTable, DeltaSchema.deletedEventsTable,
           DeltaSchema.deletedDetailsTable]

    /// What a `CREATE` statement declares: its table's or index's name.
    static var declaration: Regex<(Substring, Substring)> { /(?i)CREATE\s+(?:UNIQUE\s+|VIRTUAL\s+|TEMP\s+|TEMPORARY\s+)?(?:TABLE|INDEX)\s+(?:IF\s+NOT\s+EXISTS\s+)?["`\[]?(\w+)/ }

    /// The Swift files under Sources/, by their path relative to it, with their text.
    static func swiftFiles() throws -> [(path: String, text: String)] {
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        let base = sources.standardizedFileURL.path + "/"
        return try enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map { url in
            (String(url.standardizedFileURL.path.dropFirst(base.count)), try String(contentsOf: url, encoding: .utf8))
        }.sorted { $0.path < $1.path }
    }

    /// The lines of `text` that are code (a line that is a whole comment left out).
    static func codeLines(_ text: String) -> [(number: Int, line: Substring)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { !$0.element.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.map { ($0.offset + 1, $0.element) }
    }

    /// Where `line` writes `name` as a file name: in quotes or as a path's part (`"quakes.mbtiles"`,
    /// `pmtiles://quakes.pmtiles`, `".quakes.sqlite.staging"`), not in prose (`… of quakes.mbtiles and …`).
    /// `store/quakes.sqlite` is the store (Workspace), another file of the same name.
    static func writesName(_ line: Substring, _ name: String) -> Bool {
        var rest = line[...]
        while let found = rest.range(of: name) {
            let before = found.lowerBound == line.startIndex ? " " : line[line.index(before: found.lowerBound)]
            let after = found.upperBound == line.endIndex ? " " : line[found.upperBound]
            if ("\"/.".contains(before) || after == "\"") && !line[..<found.lowerBound].hasSuffix("store/") { return true }
            rest = line[found.upperBound...]
        }
        return false
    }

    @Test func eachFileNameIsWrittenOnceInTheHome() throws {
        let files = try Self.swiftFiles()
        #expect(files.count > 100, "the scan finds the sources")
        let homeText = files.filter { $0.path.hasPrefix(Self.home) }.map(\.text).joined(separator: "\n")
        for name in Self.names {
            #expect(homeText.components(separatedBy: "\"\(name)\"").count - 1 == 1, "Sources/\(Self.home) writes \(name) once")
        }
        for file in files where !file.path.hasPrefix(Self.home) {
            for (number, line) in Self.codeLines(file.text) {
                for name in Self.names where Self.writesName(line, name) {
                    Issue.record("Sources/\(file.path):\(number) writes the bundle's file name \(name); use BundleFileName: \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
    }

    /// Another database's schema may have tables of the same names (the store's `events` and
    /// `details`, the fetch journal's `details`): those folders are the homes of those files.
    static let otherDatabases = ["Store/", "Fetch/"]

    @Test func eachTableIsDeclaredOnlyInTheHome() throws {
        let declared = Set(Self.statements.compactMap { $0.firstMatch(of: Self.declaration).map { String($0.1) } })
        #expect(declared.isSuperset(of: ["metadata", "tiles", "events", "events_rtree", "info", "details", "delta_info", "deleted_tiles",
                                         "deleted_events", "deleted_details", "tile_index", "events_id"]))
        #expect(Set(Self.statements).count == Self.statements.count, "each statement is written once")
        let files = try Self.swiftFiles()
        for file in files where !file.path.hasPrefix(Self.home) && !Self.otherDatabases.contains(where: file.path.hasPrefix) {
            for (number, line) in Self.codeLines(file.text) {
                // (Swift's regexes are slow, and Sources/ holds a megabyte of MapLibre on a few lines.)
                guard line.range(of: "create", options: .caseInsensitive) != nil else { continue }
                for match in line.matches(of: Self.declaration) where declared.contains(String(match.1)) {
                    Issue.record("Sources/\(file.path):\(number) declares the bundle's \(match.1); use the statement of Sources/\(Self.home): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
    }

    /// What writes PMTiles' bytes by hand: its magic (as text or bytes), and, in a file that
    /// names PMTiles, the header's size and layout (little-endian fields), the root's limit, varints.
    static let pmtilesMagic = ["\"PMTiles\"", "0x50, 0x4d, 0x54"]
    static let pmtilesLayout = ["littleEndian", "127", "16_384", "16384", "0x80", "0x7f"]

    @Test func pmtilesIsWrittenOnlyInTheHome() throws {
        let files = try Self.swiftFiles()
        let home = files.filter { $0.path.hasPrefix(Self.home) }.map(\.text).joined(separator: "\n").lowercased()
        #expect((Self.pmtilesMagic.prefix(1) + ["littleendian", "0x80", "0x7f"]).allSatisfy { home.contains($0.lowercased()) },
                "the scan looks for what the home writes")
        for file in files where !file.path.hasPrefix(Self.home) {
            let namesPMTiles = Self.codeLines(file.text).contains { $0.line.contains("PMTiles") }
            for (number, line) in Self.codeLines(file.text) {
                let lower = line.lowercased()
                let found = Self.pmtilesMagic.filter { lower.contains($0) }
                    + (namesPMTiles ? Self.pmtilesLayout.filter { lower.contains($0.lowercased()) } : [])
                for what in found {
                    Issue.record("Sources/\(file.path):\(number) writes PMTiles' \(what) itself; use PMTilesHeader/PMTilesDirectory of Sources/\(Self.home): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
    }
}
