import QuakeCommon
import Foundation

/// The ComCat CSV format (`format=csv`, the `*.csv` feeds): 22 columns, one event per row.
///
/// CSV has no `ids`, `sources` or `types`: on reading they are derived as
/// `ids = [id]`, `sources = [net]`, `types = ["origin"]`.
public enum ComCatCSV {
    /// The columns ComCat writes, in its order.
    public static let columns = Column.allCases.map { "\($0)" }
    /// Columns a file must have to be read at all.
    static let requiredColumns = ["time", "latitude", "longitude", "id", "updated"]

    /// A column ComCat writes, named as in its header, in its order.
    enum Column: Int, CaseIterable {
        case time, latitude, longitude, depth, mag, magType, nst, gap, dmin, rms, net, id, updated, place, type,
             horizontalError, depthError, magError, magNst, status, locationSource, magSource
    }

    /// Where each of ComCat's columns is in the rows of one file, from its header line (the
    /// first of a column named twice; a file may add columns, or leave some out).
    struct Header {
        /// Every column name of the file and its position.
        let positions: [String: Int]
        /// `positions` of each `Column`, by its raw value (-1: not in the file).
        private let known: [Int]
        /// The number of cells of the header line.
        let count: Int

        init(_ names: [String]) {
            var positions: [String: Int] = [:]
            for (index, name) in names.enumerated() where positions[name] == nil { positions[name] = index }
            self.positions = positions
            known = ComCatCSV.columns.map { positions[$0] ?? -1 }
            count = names.count
        }

        /// The position of `column`, if the file has it.
        func position(of column: Column) -> Int? {
            let position = known[column.rawValue]
            return position >= 0 ? position : nil
        }
    }

    /// Reads `data` (gzip or plain). Columns are found by header name; extra columns are ignored.
    public static func read(_ data: Data, source: String) -> CatalogPage {
        var events: [QuakeEvent] = []
        var page = read(data, source: source, chunkSize: .max) { events = $0 }
        page.events = events
        return page
    }

    /// Reads like `read(_:source:)`, handing the events over in chunks of `chunkSize` as the rows
    /// are read; the rejects (and a problem) stay in the page returned.
    public static func read(_ data: Data, source: String, chunkSize: Int, events deliver: ([QuakeEvent]) -> Void) -> CatalogPage {
        let text: Data
        do {
            text = try Gzip.decompressIfNeeded(data)
        } catch {
            return CatalogPage(problem: "\(error)")
        }
        return read(text: text, source: source, rowsBefore: 0, chunkSize: chunkSize, events: deliver).page
    }

    /// Reads `text`, a header line and rows that come after `rowsBefore` rows of the file (a piece
    /// of a bigger file, see `CatalogStream`); returns the page and the number of the last row.
    static func read(text: some ContiguousBytes, source: String, rowsBefore: Int, chunkSize: Int,
                     events deliver: ([QuakeEvent]) -> Void) -> (page: CatalogPage, lastRow: Int) {
        var page = CatalogPage()
        var chunk: [QuakeEvent] = []
        chunk.reserveCapacity(min(chunkSize, 4096))
        var lastRow = rowsBefore + 1
        do {
            lastRow = try forEachRow(text: text, source: source, rowsBefore: rowsBefore) { row in
                switch row.event() {
                case .success(let event):
                    chunk.append(event)
                    if chunk.count >= chunkSize {
                        deliver(chunk)
                        chunk.removeAll(keepingCapacity: true)
                    }
                case .failure(let reject): page.rejects.append(reject)
                }
            }
        } catch {
            page.problem = "\(error)"
        }
        if !chunk.isEmpty { deliver(chunk) }
        return (page, lastRow)
    }

    /// One data row with access to its cells by column name.
    public struct Row {
        let header: Header
        /// The cells as read (the first `CSVRows.maxCells`).
        public let cells: [String]
        /// How many cells the row has.
        let cellCount: Int
        /// 1-based row number counting the header as row 1.
        public let number: Int

        /// The cell under `column`, or `nil` when the column is absent or the cell empty.
        public subscript(column: String) -> String? {
            cell(at: header.positions[column])
        }

        /// The cell under `column`, or `nil` when the column is absent or the cell empty.
        subscript(column: Column) -> String? {
            cell(at: header.position(of: column))
        }

        private func cell(at index: Int?) -> String? {
            guard let index, index < cells.count else { return nil }
            let cell = cells[index]
            return cell.isEmpty ? nil : cell
        }

        /// The row as an event, or a reject naming the row and the reason.
        public func event() -> Result<QuakeEvent, Reject> {
            Result { try makeEvent() }.mapError { error in
                Reject(position: "row \(number)", reason: "\(error)", raw: ComCatCSV.line(cells))
            }
        }

        struct Failure: Error, CustomStringConvertible { let description: String }

        private func makeEvent() throws -> QuakeEvent {
            if cellCount != header.count {
                throw Failure(description: "row has \(Format.count(cellCount)) cells, the header has \(header.count)")
            }
            // A NUL is binary damage in a text file: the row holding it goes, not the file (see `CatalogFile.kind`).
            if let column = cells.firstIndex(where: { $0.utf8.contains(0) }) {
                let name = header.positions.first { $0.value == column }?.key ?? "cell \(column + 1)"
                throw Failure(description: "\(name) holds a NUL byte (binary damage)")
            }
            guard let id = self[.id] else { throw Failure(description: "missing id") }
            guard let updatedText = self[.updated] else { throw Failure(description: "missing updated time") }
            var event = QuakeEvent(id: id, updated: try time(updatedText, .updated))
            event.status = self[.status]
            event.time = try self[.time].map { try time($0, .time) }
            event.latitude = try number(.latitude)
            event.longitude = try number(.longitude)
            event.depthKm = try number(.depth)
            event.mag = try number(.mag)
            event.magType = self[.magType]
            event.nst = try whole(.nst)
            event.gap = try number(.gap)
            event.dmin = try number(.dmin)
            event.rms = try number(.rms)
            event.net = self[.net]
            event.place = self[.place]
            event.eventType = self[.type]
            event.horizontalError = try number(.horizontalError)
            event.depthError = try number(.depthError)
            event.magError = try number(.magError)
            event.magNst = try whole(.magNst)
            event.locationSource = self[.locationSource]
            event.magSource = self[.magSource]
            if let net = event.net {
                event.sources = [net]
                if id.hasPrefix(net) { event.code = String(id.dropFirst(net.count)) }
            }
            event.types = ["origin"]
            if let reason = EventRules.check(&event) { throw Failure(description: reason) }
            return event
        }

        private func number(_ column: Column) throws -> Double? {
            guard var text = self[column] else { return nil }
            // Plain decimals only (Swift's Double("0x1p3") reads hex floats, which no catalog writes),
            // read in place as the JSON reader reads its numbers.
            guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 == 0x65 || $0 == 0x45 }),
                  let value = text.withUTF8(JSONParser.number(in:)) else {
                throw Failure(description: "\(column) is not a number (\"\(text.prefix(64))\")")
            }
            return value
        }

        private func whole(_ column: Column) throws -> Int? {
            guard let value = try number(column) else { return nil }
            guard value.isFinite, value == value.rounded() else {
                throw Failure(description: "\(column) is not a whole number (\(value))")
            }
            // Beyond 2^53 a double no longer holds every whole number (and past 2^63 no Int holds it).
            guard abs(value) < 9e15 else {
                throw Failure(description: "\(column) \(value) is too large (whole numbers up to 9e15)")
            }
            return Int(value)
        }

        private func time(_ text: String, _ column: Column) throws -> Int64 {
            if let ms = ISOTime.parse(text) { return ms }
            if let ms = Int64(text) { return ms }
            throw Failure(description: "\(column) is not a valid time (\"\(text.prefix(64))\")")
        }
    }

    /// Calls `body` for every data row. Throws when the file is not a ComCat CSV at all.
    public static func forEachRow(_ data: Data, source: String, _ body: (Row) throws -> Void) throws {
        try forEachRow(text: try Gzip.decompressIfNeeded(data), source: source, rowsBefore: 0, body)
    }

    /// Calls `body` for every data row of `text` (a header line, then rows numbered after
    /// `rowsBefore` rows of the file); returns the number of the last row (the header is row 1).
    @discardableResult
    static func forEachRow(text: some ContiguousBytes, source: String, rowsBefore: Int, _ body: (Row) throws -> Void) throws -> Int {
        guard text.withUnsafeBytes({ !$0.isEmpty }) else { throw Row.Failure(description: "\(source): the file is empty") }
        var header: Header?
        var number = rowsBefore
        try CSVRows.forEach(in: text) { cells, cellCount in
            number += 1
            guard let header else {
                guard cellCount <= CSVRows.maxCells else {
                    throw Row.Failure(description: "\(source): wrong CSV header: \(Format.count(cellCount)) columns (ComCat has \(columns.count))")
                }
                let missing = requiredColumns.filter { !cells.contains($0) }
                guard missing.isEmpty else {
                    throw Row.Failure(description: "\(source): wrong CSV header: missing \(missing.joined(separator: ", ")); expected the ComCat columns \(columns.joined(separator: ","))")
                }
                header = Header(cells)
                return
            }
            if cells.count == 1 && cells[0].isEmpty { return }  // blank line
            try body(Row(header: header, cells: cells, cellCount: cellCount, number: number))
        }
        return max(number, rowsBefore + 1)
    }

    /// Writes events as ComCat CSV, header included.
    public static func write(_ events: [QuakeEvent]) -> String {
        var out = columns.joined(separator: ",") + "\n"
        for e in events {
            let cells: [String?] = [
                e.time.map { ISOTime.format(milliseconds: $0) }, e.latitude.map(JSONText.number), e.longitude.map(JSONText.number),
                e.depthKm.map(JSONText.number), e.mag.map(JSONText.number), e.magType, e.nst.map(String.init),
                e.gap.map(JSONText.number), e.dmin.map(JSONText.number), e.rms.map(JSONText.number), e.net, e.id,
                ISOTime.format(milliseconds: e.updated), e.place, e.eventType, e.horizontalError.map(JSONText.number),
                e.depthError.map(JSONText.number), e.magError.map(JSONText.number), e.magNst.map(String.init), e.status,
                e.locationSource, e.magSource,
            ]
            out += line(cells.map { $0 ?? "" }) + "\n"
        }
        return out
    }

    /// One CSV line, quoting cells that need it.
    static func line(_ cells: [String]) -> String {
        cells.map { cell in
            cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : cell
        }.joined(separator: ",")
    }
}
