import QuakeSQLite
import QuakeCatalog

/// Writes events as rows of `events` through one prepared statement (`EventRow.insertSQL`
/// or `EventRow.updateSQL`).
///
/// Text bound the usual way (`SQLITE_TRANSIENT`) is copied by SQLite into memory of its
/// own: a malloc and a free for each of the sixteen text columns of every row, and the
/// comma-wrapped lists would each be built as a `String` first. Here the texts, the lists
/// and the geometry BLOB are gathered into one reusable buffer, bound in place
/// (`SQLITE_STATIC`) once the buffer is complete (so it no longer moves), and unbound
/// again as soon as the row is written. (A struct: the buffer is worked on through
/// `mutating` methods, which Swift checks for exclusive access once per row, not once per
/// value as it would the stored properties of a class.)
struct EventRowWriter {
    private let statement: RawStatement
    private var buffer: [UInt8] = []
    /// Where each bound text or BLOB lies in `buffer`, by parameter.
    private var spans: [(parameter: Int32, start: Int, count: Int)] = []

    init(_ statement: RawStatement) {
        self.statement = statement
    }

    /// Binds `e` to parameters 1…`EventRow.columns.count` (and `rowid`, when given, to the
    /// parameter after them: the UPDATE's `WHERE rowid = ?`) and runs the statement. The
    /// event must have coordinates and a time (every stored event does; deletions go to
    /// `tombstones`).
    mutating func write(_ e: QuakeEvent, rowid: Int64? = nil) throws {
        let s = statement
        buffer.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        buffer.append(0)  // never empty, so that an empty text has an address (a nil one would bind NULL)
        let longitude = e.longitude ?? 0, latitude = e.latitude ?? 0
        text(1, e.id)
        list(2, e.ids)
        list(3, e.sources)
        list(4, e.types)
        s.bind(5, e.time)
        s.bind(6, e.updated)
        s.bind(7, longitude)
        s.bind(8, latitude)
        s.bind(9, e.depthKm)
        s.bind(10, e.mag)
        text(11, e.magType)
        text(12, e.place)
        text(13, e.status)
        text(14, e.eventType)
        text(15, e.net)
        text(16, e.code)
        s.bind(17, e.felt)
        s.bind(18, e.cdi)
        s.bind(19, e.mmi)
        text(20, e.alert)
        s.bind(21, e.tsunami)
        s.bind(22, e.sig)
        s.bind(23, e.nst)
        s.bind(24, e.dmin)
        s.bind(25, e.rms)
        s.bind(26, e.gap)
        text(27, e.title)
        text(28, e.url)
        text(29, e.detail)
        s.bind(30, e.tz)
        s.bind(31, e.horizontalError)
        s.bind(32, e.depthError)
        s.bind(33, e.magError)
        s.bind(34, e.magNst)
        text(35, e.locationSource)
        text(36, e.magSource)
        let geometry = buffer.count
        SpatiaLitePoint.withBlob(longitude: longitude, latitude: latitude) { buffer.append(contentsOf: $0) }
        if let rowid { s.bind(Int32(EventRow.columns.count + 1), rowid) }
        try buffer.withUnsafeBufferPointer { bytes in
            defer { s.clearBindings() }
            for span in spans {
                s.bind(span.parameter, borrowedText: UnsafeBufferPointer(rebasing: bytes[span.start..<(span.start + span.count)]))
            }
            s.bind(37, borrowedBlob: UnsafeBufferPointer(rebasing: bytes[geometry..<(geometry + SpatiaLitePoint.byteCount)]))
            try s.run()
        }
    }

    /// The rowid of the row the last INSERT on this connection made.
    var lastInsertRowid: Int64 { statement.lastInsertRowid }

    private mutating func text(_ parameter: Int32, _ value: String?) {
        guard let value else { statement.bind(parameter, nil as String?); return }
        let start = buffer.count
        buffer.append(contentsOf: value.utf8)
        spans.append((parameter, start, buffer.count - start))
    }

    /// A list, comma-wrapped as `CommaList.format` writes it (`,a,b,`; empty when there are no items).
    private mutating func list(_ parameter: Int32, _ items: [String]) {
        let start = buffer.count
        if !items.isEmpty {
            for item in items {
                buffer.append(UInt8(ascii: ","))
                buffer.append(contentsOf: item.utf8)
            }
            buffer.append(UInt8(ascii: ","))
        }
        spans.append((parameter, start, buffer.count - start))
    }
}
