import Foundation
import QuakeCatalog
import QuakeCommon

/// One row of the history file: a version of an event and when it was first seen.
struct HistoryVersion: Sendable {
    var firstSeen: Int64
    var event: QuakeEvent
}

/// The USGS history file (`first_seen`, `source_repo`, then the 22 ComCat columns;
/// sorted by `first_seen`), read forward in time a piece at a time.
///
/// Rows whose `first_seen` or event times cannot be parsed (the feed's
/// `1970-01-01T00:00:02.-2147483648Z` rows) are skipped and counted in `skippedRows`.
final class ReplayHistory {
    let source: String
    private let records: CSVRecords
    private let header: [UInt8]
    /// The first row not yet handed out, read ahead to see its `first_seen`.
    private var lookahead: (firstSeen: Int64, record: [UInt8])?
    private(set) var skippedRows = 0
    /// `first_seen` of the first readable row; `nil` when the file has none.
    let firstSeen: Int64?

    /// Rows parsed per call into the CSV reader, to bound memory on long jumps.
    private let batchSize = 5_000

    /// Opens the file and reads its header; the error names the file and what is wrong.
    init(url: URL) throws(QuakeBakeError) {
        source = url.path
        do {
            records = try CSVRecords(url: url)
            header = try records.next() ?? []
        } catch {
            throw QuakeBakeError("replay history \(url.path): cannot read: \(Self.describe(error))")
        }
        let names = String(decoding: header, as: UTF8.self).split(separator: ",").map(String.init)
        let missing = ["first_seen", "id", "updated", "time", "latitude", "longitude"].filter { !names.contains($0) }
        guard names.first == "first_seen", missing.isEmpty else {
            throw QuakeBakeError("replay history \(url.path): not a history file: the header must start with first_seen and hold the ComCat columns"
                                 + (missing.isEmpty ? "" : " (missing \(missing.joined(separator: ", ")))"))
        }
        var first: (Int64, [UInt8])?
        var skipped = 0
        do {
            while first == nil, let record = try records.next() {
                if record.isEmpty { continue }
                if let time = Self.firstSeen(of: record) { first = (time, record) } else { skipped += 1 }
            }
        } catch {
            throw QuakeBakeError("replay history \(url.path): \(Self.describe(error))")
        }
        lookahead = first
        firstSeen = first?.0
        skippedRows = skipped
    }

    /// Calls `body` with every version first seen at or before `time`, in file order.
    /// Returns how many rows were read (skipped rows included).
    func read(through time: Int64, _ body: (HistoryVersion) -> Void) throws(QuakeBakeError) -> Int {
        var batch: [[UInt8]] = []
        var rows = 0
        do {
            while true {
                let next: (firstSeen: Int64, record: [UInt8])?
                if let lookahead { next = lookahead; self.lookahead = nil } else { next = try nextReadable() }
                guard let next else { break }
                if next.firstSeen > time { lookahead = next; break }
                batch.append(next.record)
                rows += 1
                if batch.count == batchSize { try parse(batch, body); batch = [] }
            }
            try parse(batch, body)
        } catch let error as QuakeBakeError {
            throw error
        } catch {
            throw QuakeBakeError("replay history \(source): \(Self.describe(error))")
        }
        return rows
    }

    /// The next row with a readable `first_seen`, counting the others as skipped.
    private func nextReadable() throws -> (firstSeen: Int64, record: [UInt8])? {
        while let record = try records.next() {
            if record.isEmpty { continue }
            if let time = Self.firstSeen(of: record) { return (time, record) }
            skippedRows += 1
        }
        return nil
    }

    private func parse(_ batch: [[UInt8]], _ body: (HistoryVersion) -> Void) throws {
        guard !batch.isEmpty else { return }
        var text = header
        for record in batch {
            text.append(0x0A)
            text.append(contentsOf: record)
        }
        try ComCatCSV.forEachRow(Data(text), source: source) { row in
            guard let firstSeen = row["first_seen"].flatMap(ISOTime.parse), case .success(let event) = row.event() else {
                skippedRows += 1
                return
            }
            body(HistoryVersion(firstSeen: firstSeen, event: event))
        }
    }

    /// File-system errors say it best in `localizedDescription`; the readers' errors describe themselves.
    private static func describe(_ error: any Error) -> String {
        let system = error as NSError
        return [NSCocoaErrorDomain, NSPOSIXErrorDomain].contains(system.domain) ? system.localizedDescription : "\(error)"
    }

    /// `first_seen` is the first cell and never quoted.
    private static func firstSeen(of record: [UInt8]) -> Int64? {
        guard let comma = record.firstIndex(of: 0x2C) else { return nil }
        return ISOTime.parse(String(decoding: record[..<comma], as: UTF8.self))
    }
}
