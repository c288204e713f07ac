import Foundation
@testable import QuakeCatalog
import QuakeCommon

/// What the catalog fuzz targets (`fuzz-geojson`, `fuzz-csv`) do with one input: read it as
/// `index` reads a file, both ways it can, and stop the run (a crash libFuzzer saves) when
/// anything is wrong. Wrong is:
/// - a crash, a trap or a memory error anywhere in reading (AddressSanitizer finds the last);
/// - the two ways disagreeing: the whole text (`InputFile.body`, then `CatalogFile.read`, for a
///   file under `IndexSource.streamedFrom`) and the file read a piece at a time
///   (`CatalogStream.read`, for a bigger one) in pieces small enough to cut every record must
///   give the same events in the same order, the same rejects and the same problem (the
///   contract `CatalogStreamTests` checks on real files);
/// - an event handed over that the reader's own rules (`EventRules.check`) would refuse or
///   change: no value from outside may reach a later stage unchecked.
public enum CatalogHarness {
    /// Which inputs a target reads: each keeps to its own format, so that its corpus and
    /// coverage stay its own (gzip inputs, whose text is not looked at first, go to both).
    public enum Format {
        case geoJSON, csv
    }

    /// The name the input goes by in messages; both reads must say the same.
    static let source = "fuzz-input"
    /// Events are handed over in chunks this small, so that a chunk's edge falls everywhere.
    static let chunkSize = 3
    /// What an input's text may be (`--max-file-size`): gzip inflates to at most this, so that a
    /// bomb (or a file of 100,000 broken features) costs milliseconds, not seconds under the
    /// instrumentation, and the limit is met often.
    static let maxBytes = 256 << 10

    /// The file the streamed read reads: one per process, rewritten for every input.
    static let file: URL = {
        let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        return directory.appendingPathComponent("quake-bake-fuzz-\(getpid()).input")
    }()

    /// Reads `bytes` if they are of `format`; see the type's description for what is checked.
    public static func run(_ bytes: UnsafeRawBufferPointer, format: Format) {
        guard accepts(bytes, format: format) else { return }
        let data = Data(bytes)
        // As `index` reads a file under 8 MB (`SourceReader`): its text, then the text read.
        let body = InputFile.body(of: data, maxBytes: maxBytes)
        var wholeEvents: [QuakeEvent] = []
        var whole = CatalogFile.read(body.text, source: source, chunkSize: chunkSize) { wholeEvents += $0 }
        if let damage = body.damage { whole.problem = "\(source): \(damage)" }
        wholeEvents += whole.events

        // As `index` reads a bigger one: a piece at a time, from the file.
        do {
            try data.write(to: file)
        } catch {
            fail("cannot write \(file.path): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        // 16 to 256 bytes a piece, chosen by the input (so that a crash file replays as found), and
        // at most about a thousand pieces: a gzip input inflates to megabytes, whose millions of tiny
        // pieces would cost seconds (a cost of the piece size, which is 2 MB in `index`).
        let pieceBytes = max(16 << Int((bytes.last ?? 0) % 5), body.text.count / 1024)
        var streamedEvents: [QuakeEvent] = []
        let streamed = CatalogStream.read(file, source: source, maxBytes: maxBytes, pieceBytes: pieceBytes, chunkSize: chunkSize) { streamedEvents += $0 }
        streamedEvents += streamed.events

        expectSame(whole: (wholeEvents, whole), streamed: (streamedEvents, streamed), pieceBytes: pieceBytes)
        for event in wholeEvents {
            var checked = event
            if let reason = EventRules.check(&checked) { fail("an event handed over breaks the rules (\(reason)): \(event)") }
            if checked != event { fail("an event handed over changes when checked again: \(event) became \(checked)") }
        }
    }

    /// Whether a target for `format` reads `bytes`: GeoJSON starts (after a byte-order mark
    /// and blanks) with `{` or a record separator, CSV with anything else but `[`.
    static func accepts(_ bytes: UnsafeRawBufferPointer, format: Format) -> Bool {
        if bytes.starts(with: [0x1F, 0x8B]) { return true }
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let first = text.first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        let isGeoJSON = first == 0x7B || first == 0x1E
        return format == .geoJSON ? isGeoJSON : !isGeoJSON && first != 0x5B
    }

    private static func expectSame(whole: ([QuakeEvent], CatalogPage), streamed: ([QuakeEvent], CatalogPage), pieceBytes: Int) {
        let said = "read whole and in pieces of \(pieceBytes) B"
        let problems = "problems: \(whole.1.problem ?? "none") / \(streamed.1.problem ?? "none")"
        if whole.0 != streamed.0 {
            let index = zip(whole.0, streamed.0).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(whole.0.count, streamed.0.count)
            fail("\(said): \(whole.0.count) and \(streamed.0.count) events, first different at \(index): "
                 + "\(whole.0.dropFirst(index).first.map { "\($0)" } ?? "none") / \(streamed.0.dropFirst(index).first.map { "\($0)" } ?? "none"); \(problems)")
        }
        let rejects = (whole.1.rejects.map { [$0.position, $0.reason, $0.raw] }, streamed.1.rejects.map { [$0.position, $0.reason, $0.raw] })
        if rejects.0 != rejects.1 || whole.1.rejects.count != streamed.1.rejects.count {
            let index = zip(rejects.0, rejects.1).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(rejects.0.count, rejects.1.count)
            func shown(_ reject: [String]?) -> String {
                reject.map { "\($0[0]): \($0[1]) (\($0[2].utf8.count) bytes: \($0[2].prefix(100).debugDescription)…\($0[2].suffix(100).debugDescription))" } ?? "none"
            }
            fail("\(said): \(whole.1.rejects.count) and \(streamed.1.rejects.count) rejects, first different at \(index): "
                 + "\(shown(rejects.0.dropFirst(index).first)) / \(shown(rejects.1.dropFirst(index).first)); \(problems)")
        }
        if whole.1.problem != streamed.1.problem { fail("\(said): different \(problems)") }
    }

    /// Stops the run with `message` on standard error: libFuzzer saves the input as a crash.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("quake-bake fuzz: \(message)\n".utf8))
        abort()
    }
}
