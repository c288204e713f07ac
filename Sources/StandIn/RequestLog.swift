/// One request the FDSN side of the stand-in answered, as `GET /admin/requests` lists it.
struct RequestRecord: Codable, Sendable, Equatable {
    /// 1, 2, 3… in the order answers were finished; not reset by `DELETE /admin/requests`.
    var seq: Int
    var method: String
    /// Path and query exactly as sent.
    var target: String
    /// The FDSN method (`query`, `count`, `version`, …), or `other`.
    var endpoint: String
    var status: Int
    /// Body bytes sent (after gzip; for a disconnect, the part sent before the cut).
    var bytes: Int
    /// Milliseconds from request to the answer being ready (a stall included).
    var ms: Int
    /// The injected fault that fired (`503`, `429`, `stall`, …), if any.
    var fault: String?
}

/// The request log kept for the admin interface.
struct RequestLog: Sendable {
    private(set) var records: [RequestRecord] = []
    private var nextSeq = 1

    /// Adds `record`, numbering it.
    mutating func append(_ record: RequestRecord) {
        var record = record
        record.seq = nextSeq
        nextSeq += 1
        records.append(record)
    }

    mutating func reset() { records = [] }
}
