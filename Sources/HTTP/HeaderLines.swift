import Foundation
import QuakeCommon

/// An answer's header lines as curl hands them over, one whole line a call: parsed in one
/// pass each (so in time linear in their bytes), counted, and refused past the limits.
struct HeaderLines {
    let maxLines: Int
    let maxBytes: Int
    /// The status of the latest status line (`HTTP/1.1 200 OK`); 0 before one came.
    private(set) var status = 0
    /// The header lines of the latest answer (an interim `100 Continue`'s are dropped).
    private(set) var lines: [(name: String, value: String)] = []
    private var count = 0
    private var bytes = 0

    init(maxLines: Int, maxBytes: Int) {
        self.maxLines = maxLines
        self.maxBytes = maxBytes
    }

    /// Takes one line (with its CRLF); true when it was the blank line that ends a final
    /// answer's headers. Throws past the limits.
    mutating func take(_ raw: UnsafeRawBufferPointer) throws(TransferFailure) -> Bool {
        count += 1
        bytes += raw.count
        guard count <= maxLines else { throw .headersTooLong("more than \(maxLines) header lines") }
        guard bytes <= maxBytes else { throw .headersTooLong("more than \(Format.bytes(maxBytes)) of header lines") }
        var end = raw.count
        while end > 0, raw[end - 1] == 0x0D || raw[end - 1] == 0x0A { end -= 1 }
        let line = Substring(String(decoding: UnsafeRawBufferPointer(rebasing: raw[..<end]), as: UTF8.self))
        if line.isEmpty { return status >= 200 }
        if line.hasPrefix("HTTP/") {
            let words = line.split(separator: " ", maxSplits: 2)
            status = words.count >= 2 ? Int(words[1]) ?? 0 : 0
            lines = []
        } else if let colon = line.firstIndex(of: ":") {
            lines.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return false
    }
}
