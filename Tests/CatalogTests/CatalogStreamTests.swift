import Foundation
import QuakeCatalog
import QuakeCommon
import Testing
import TestSupport

/// A big file read a piece at a time gives what reading it whole gives: the same events in
/// the same order, the same rejects at the same positions (row, feature, byte of the file),
/// the same problem. Small pieces put a cut at every kind of place: inside strings, inside
/// quoted CSV cells, between two features, inside the FeatureCollection's first members.
@Suite struct CatalogStreamTests {
    static let pieceSizes = [97, 4096, 1 << 20]

    /// Reads `url` whole (its text, then the text read, as `index` reads a file under 8 MB) and
    /// streamed in each piece size, within `maxBytes`; expects the same outcome, and returns it.
    @discardableResult
    static func expectSameAsWhole(_ url: URL, _ comment: String, maxBytes: Int = InputFile.defaultMaxBytes,
                                  pieceSizes: [Int] = pieceSizes) throws -> CatalogPage {
        let body = InputFile.body(of: try Data(contentsOf: url), maxBytes: maxBytes)
        var whole = CatalogFile.read(body.text, source: url.path)
        if let damage = body.damage { whole.problem = "\(url.path): \(damage)" }
        for piece in pieceSizes {
            var events: [QuakeEvent] = []
            let streamed = CatalogStream.read(url, source: url.path, maxBytes: maxBytes, pieceBytes: piece, chunkSize: 50) { events += $0 }
            events += streamed.events
            let firstDifference = zip(events, whole.events).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(events.count == whole.events.count && firstDifference == nil,
                    "\(comment), pieces of \(piece) B: \(events.count) events, whole \(whole.events.count), first difference at \(firstDifference ?? -1)")
            #expect(streamed.rejects.map(\.position) == whole.rejects.map(\.position), "\(comment), pieces of \(piece) B")
            #expect(streamed.rejects.map(\.reason) == whole.rejects.map(\.reason), "\(comment), pieces of \(piece) B")
            #expect(streamed.rejects.map(\.raw) == whole.rejects.map(\.raw), "\(comment), pieces of \(piece) B")
            #expect(streamed.problem == whole.problem, "\(comment), pieces of \(piece) B")
        }
        return whole
    }

    @Test(arguments: ["feed-all_week-2020-06.geojson.gz", "query-m4.5-2020-2024-antimeridian-window.geojson.gz",
                      "query-m6-1973-2023.csv.gz", "feed-2.5_month-2019-07.csv.gz"])
    func realFilesReadAlike(name: String) throws {
        try Self.expectSameAsWhole(TestData.usgs(name), name)
    }

    /// Every file of the bad-input corpus (Tests/BadInput, which `BadInputTests` indexes whole)
    /// reads the same a piece at a time: its cases hold for both ways of reading, whichever
    /// one the fuzzer found them in (`stray-brace.geojson`: a `}` between features once ended
    /// the features array of a file read in pieces, and its members were read again).
    @Test func theBadInputCorpusReadsAlike() throws {
        let corpus = TestData.projectRoot.appendingPathComponent("Tests/BadInput")
        for name in try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted() where name != "README.md" {
            // The gzip bomb inflates to 64 MB: 700,000 pieces of 97 bytes.
            try Self.expectSameAsWhole(corpus.appendingPathComponent(name), name, pieceSizes: name.hasPrefix("gzip-bomb") ? [1 << 20] : Self.pieceSizes)
        }
    }

    /// A symbolic link is read as the file it names, within the file's limits: from the link's own
    /// size (some 60 bytes), a 44 MB CSV.gz given as a link was cut at 64 MB of text as a gzip bomb.
    @Test func aLinkIsReadAsTheFileItNames() throws {
        let directory = TemporaryDirectory("catalog-stream-link")
        let file = TestData.usgs("query-m6-1973-2023.csv.gz")
        let link = directory.url.appendingPathComponent("link.csv.gz")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        #expect(InputFile.regularFileSize(of: link) == size)
        try Self.expectSameAsWhole(link, "a link")
        let limit = size / 2
        let direct = CatalogStream.read(file, source: "the file", maxBytes: limit, chunkSize: 50) { _ in }
        let linked = CatalogStream.read(link, source: "the file", maxBytes: limit, chunkSize: 50) { _ in }
        #expect(direct.problem?.contains("over the") == true, "\(direct.problem ?? "no problem")")
        #expect(linked.problem == direct.problem)
        #expect(InputFile.regularFileSize(of: directory.url) == nil)
    }

    @Test func damagedAndOddFilesReadAlike() throws {
        let directory = TemporaryDirectory("catalog-stream")
        let sample = String(decoding: try Gzip.decompress(Data(contentsOf: TestData.usgs("feed-all_week-2020-06.geojson.gz"))), as: UTF8.self)
        let csv = String(decoding: try Gzip.decompress(Data(contentsOf: TestData.usgs("query-m6-1973-2023.csv.gz"))), as: UTF8.self)
        let features = try #require(sample.range(of: "\"features\":["))
        let latitude91 = "2000-01-01T00:00:00.000Z,91,0,10,5,mw,,,,,us,usbad,2000-01-01T00:00:00.000Z,\"bad\",earthquake,,,,,reviewed,us,us\n"
        let rows = csv.split(separator: "\n", omittingEmptySubsequences: false)
        let macLineBreaks = rows.prefix(rows.count / 2).joined(separator: "\r") + "\n" + rows.dropFirst(rows.count / 2).joined(separator: "\n")
        // Between two features, after the comma and the line break: no feature is cut.
        let between = try #require(sample.range(of: "},\n{\"type\":\"Feature\"", range: sample.index(sample.startIndex, offsetBy: sample.count / 3)..<sample.endIndex))
        var cases: [(String, String)] = [
            ("truncated.geojson", String(sample.prefix(sample.count * 2 / 3))),
            ("cut-between-features.geojson", String(sample[..<sample.index(between.lowerBound, offsetBy: 3)])),
            ("broken-feature.geojson", sample.replacingOccurrences(of: "\"mag\":", with: "\"mag\"::", options: [], range: sample.range(of: "\"mag\":"))),
            // Rejected features (an impossible time) with blanks before the comma after them.
            ("rejects-and-blanks.geojson", sample.replacingOccurrences(of: "\"time\":", with: "\"time\":1e300,\"was\":")
                .replacingOccurrences(of: "},\n{\"type\":\"Feature\"", with: "}\n ,{\"type\":\"Feature\"")),
            // A bracket that never closes: the broken feature runs to the end of the file.
            ("unbalanced-feature.geojson", sample.replacingOccurrences(of: "\"mag\":", with: "\"mag\":[", options: [],
                                                                      range: sample.range(of: "\"mag\":", range: sample.index(sample.startIndex, offsetBy: sample.count / 2)..<sample.endIndex))),
            ("bom.geojson", "\u{FEFF}" + sample),
            // Quotes, backslashes and brackets inside strings, cut at every place by the small pieces.
            ("escapes.geojson", sample.replacingOccurrences(of: #""place":""#, with: #""place":"q\" ]},[{ \\\" \\\\ "#)),
            ("features-first.geojson", "{" + sample[features.lowerBound...].dropLast(1) + ",\"type\":\"FeatureCollection\"}"),
            // A long first member, before the features (looked for again only as the text read doubles),
            // and one left open to the end (once looked for from the start with every piece: found by Scripts/fuzz geojson).
            ("long-first-member.geojson", "{\"note\":\"" + String(repeating: #"ab\"[{"#, count: 60_000) + "\"," + sample.dropFirst()),
            ("open-first-member.geojson", "{\"type\":\"Feat" + String(repeating: #"s\"[["#, count: 60_000)),
            ("bom.csv", "\u{FEFF}" + csv),
            ("truncated.csv", String(csv.prefix(csv.count / 2))),
            ("quoted-newlines.csv", csv.replacingOccurrences(of: "\"", with: "\"\n")),
            // Old Mac line breaks, and a quote inside an unquoted cell (a character there, as CSVRows reads
            // it): both once numbered the rows of a file read in pieces differently (found by Scripts/fuzz csv).
            // (A row of latitude 91 at the end is rejected: its row number tells whether the rows were counted alike.)
            ("mac-line-breaks.csv", macLineBreaks + latitude91),
            ("quote-inside-cells.csv", csv.replacingOccurrences(of: ",earthquake,", with: ",earth\"quake,") + latitude91),
        ]
        // Newline-delimited Features.
        let page = CatalogFile.read(TestData.usgs("feed-all_week-2020-06.geojson.gz"))
        #expect(page.events.count > 1000)
        cases.append(("sequence.geojsonl", page.events.prefix(300).map(GeoJSONWriter.feature).joined(separator: "\n") + "\n"))
        // With stray lines where a Feature should start (once read forever, whole or streamed).
        var lines = page.events.prefix(300).map(GeoJSONWriter.feature)
        lines.insert("x\"type\": \"Feature\", \"properties\": {\"mag\": 2.2}}", at: 200)
        lines.insert("}}}", at: 10)
        cases.append(("stray-lines.geojsonl", lines.joined(separator: "\n") + "\n"))
        // With records whose brackets or strings never close (once all later records were lost), one
        // per line and as a text sequence (each record after a record separator).
        var unbalanced = page.events.prefix(300).map(GeoJSONWriter.feature)
        for (at, cut) in [(20, 40), (150, 90), (299, 60)] { unbalanced[at] = String(unbalanced[at].prefix(cut)) }
        unbalanced[100] = unbalanced[100].replacingOccurrences(of: "\",\"time\":", with: ",\"time\":")
        cases.append(("unbalanced-lines.geojsonl", unbalanced.joined(separator: "\n") + "\n"))
        cases.append(("unbalanced-records.geojsons", unbalanced.map { "\u{1E}" + $0 + "\n" }.joined()))
        for (name, text) in cases.suffix(2) {
            #expect(CatalogFile.read(Data(text.utf8), source: name).events.count == 296, "\(name): only the 4 broken records lost")
        }
        for (name, text) in cases {
            let url = directory.url.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            let whole = try Self.expectSameAsWhole(url, name)
            if name == "cut-between-features.geojson" {
                // Once "page ends inside this feature" of a feature that is not there, its text empty.
                #expect(whole.rejects.isEmpty && whole.problem?.contains("truncated after feature") == true, "\(whole.rejects.map(\.reason)), \(whole.problem ?? "")")
            }
        }
    }

    /// What follows a FeatureCollection is read, whole and streamed alike: blanks are fine;
    /// another document or garbage is the file's problem at its byte, the events before kept
    /// (both were once dropped unsaid); so is a document cut after its features array.
    @Test func contentAfterTheDocumentIsSaid() throws {
        let directory = TemporaryDirectory("catalog-stream")
        let sample = String(decoding: try Gzip.decompress(Data(contentsOf: TestData.usgs("feed-all_week-2020-06.geojson.gz"))), as: UTF8.self)
        let sound = CatalogFile.read(Data(sample.utf8), source: "sample")
        let end = sample.utf8.count
        let cases: [(String, String, String?)] = [
            ("blanks-after.geojson", sample + "\n \t\r\n", nil),
            ("two-documents.geojson", sample + "\n" + sample, "unexpected content after the GeoJSON document at byte \(end + 1)"),
            ("garbage-after.geojson", sample + " GARBAGE{{{", "unexpected content after the GeoJSON document at byte \(end + 1)"),
            ("cut-after-features.geojson", String(sample[..<sample.range(of: "]", options: .backwards)!.upperBound]), "broken JSON: unterminated object"),
        ]
        for (name, text, problem) in cases {
            let url = directory.url.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            let whole = CatalogFile.read(url)
            #expect(whole.events == sound.events, "\(name)")
            if let problem {
                #expect(whole.problem?.hasPrefix("\(url.path): \(problem)") == true, "\(name): \(whole.problem ?? "no problem")")
            } else {
                #expect(whole.problem == nil, "\(name): \(whole.problem ?? "")")
            }
            try Self.expectSameAsWhole(url, name)
        }
    }

    /// Damaged gzip (a download cut short, bytes after the last member) is read up to the damage,
    /// as `gzip -d` reads it, whole and streamed alike: the events before it are kept and the
    /// damage is the file's problem. A wrong check value is met after the whole text: all of it is read.
    @Test func damagedGzipIsReadUpToTheDamage() throws {
        let directory = TemporaryDirectory("catalog-stream")
        for name in ["feed-all_week-2020-06.geojson.gz", "query-m6-1973-2023.csv.gz"] {
            let gzip = try Data(contentsOf: TestData.usgs(name))
            let sound = CatalogFile.read(TestData.usgs(name)).events
            var wrongChecksum = gzip
            wrongChecksum[wrongChecksum.count - 6] ^= 0xff  // the CRC: the text is whole, its check is not
            let cases = [("cut-" + name, gzip.prefix(gzip.count * 2 / 3), "gzip: data is truncated"),
                         ("trailing-" + name, gzip + Data("<html>502 Bad Gateway</html>".utf8), "start no gzip member"),
                         ("crc-" + name, wrongChecksum, "incorrect data check")]
            for (file, bytes, damage) in cases {
                let url = directory.url.appendingPathComponent(file)
                try bytes.write(to: url)
                let whole = CatalogFile.read(url)
                #expect(whole.problem?.hasPrefix("\(url.path): ") == true && whole.problem?.contains(damage) == true, "\(file): \(whole.problem ?? "no problem")")
                if !file.hasPrefix("cut") {
                    #expect(whole.events == sound, "\(file): \(whole.events.count) of \(sound.count) events")
                } else {
                    #expect(whole.events.count > sound.count / 2 && whole.events == Array(sound.prefix(whole.events.count)),
                            "\(file): \(whole.events.count) of \(sound.count) events")
                }
                try Self.expectSameAsWhole(url, file)
            }
        }
        // Damage after a problem that ends the reading (the features array broken early): the
        // damage is the file's problem, whole and streamed alike (the stream once stopped at the
        // problem and named it, the damage unread: found by Scripts/fuzz geojson).
        let sample = try Gzip.decompress(Data(contentsOf: TestData.usgs("feed-all_week-2020-06.geojson.gz")))
        let text = String(decoding: sample, as: UTF8.self)
        let comma = try #require(text.range(of: "},\n{", range: text.index(text.startIndex, offsetBy: 5_000)..<text.endIndex))
        var broken = try Gzip.compress(Data(text.replacingCharacters(in: comma, with: "}5\n{").utf8))
        broken[broken.count - 6] ^= 0xff  // the CRC
        let url = directory.url.appendingPathComponent("broken-then-damaged.geojson.gz")
        try broken.write(to: url)
        let whole = try Self.expectSameAsWhole(url, "broken, then damaged")
        #expect(whole.problem == "\(url.path): gzip: corrupt data (incorrect data check); read up to there (\(Format.bytes(sample.count)) of text)",
                "\(whole.problem ?? "no problem")")
    }

    /// gzip that inflates past its limit (50 times its size with a 64 MB floor, within
    /// --max-file-size) is read up to the limit, whole and streamed alike: the events before it
    /// kept, the one it cuts rejected, the limit the file's problem. (Once a file read whole was
    /// refused with nothing read, and the same file read in pieces kept the events before the
    /// limit, and named the file twice: found by Scripts/fuzz geojson.)
    @Test func gzipPastTheLimitIsReadUpToTheLimit() throws {
        let url = TestData.usgs("feed-all_week-2020-06.geojson.gz")
        let whole = try Self.expectSameAsWhole(url, "a 1 MB limit", maxBytes: 1 << 20)
        let size = try #require(InputFile.regularFileSize(of: url))
        #expect(whole.problem == "\(url.path): a gzip file of \(Format.bytes(size)) that inflates to more than 1.0 MB "
                + "(at most 50 times its size, and --max-file-size); read up to there", "\(whole.problem ?? "no problem")")
        let all = CatalogFile.read(url).events
        #expect(whole.events.count > 100 && whole.events.count < all.count && whole.events == Array(all.prefix(whole.events.count)))
        #expect(whole.rejects.count == 1 && whole.rejects.first?.reason.contains("truncated") == true)
    }
}
