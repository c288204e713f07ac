import Foundation

/// Where a publication's objects are read from: an HTTP(S) base or a `file://` directory.
/// Calls block; ``BundleClient`` makes them on a thread of its own.
protocol ObjectSource: Sendable {
    /// The object at `key` (relative to the base), whole; refused past `limit` bytes.
    func read(_ key: String, limit: Int) throws -> Data

    /// Appends the bytes of the object at `key` from `offset` on to `file` (which holds the first
    /// `offset`), stopping at `expected` bytes; `received` is told each piece's size. May start
    /// the file over (truncate it and write from 0) when the source cannot resume. Returns the
    /// bytes the file holds at the end.
    func download(_ key: String, into file: FileHandle, from offset: Int64, expected: Int64,
                  received: @escaping (Int64) -> Void) throws -> Int64

    /// The base, for messages (without credentials or query).
    var shown: String { get }
}

/// A transfer that failed, and whether trying again may help.
struct TransferError: Error, CustomStringConvertible {
    enum Kind {
        /// Network failures, timeouts, HTTP 5xx and 429: the source may answer later.
        case temporary
        /// HTTP 404, 403, 410: the object is not there for us.
        case missing
        /// The answer is not what the pointer promised (longer, another range), or not one we read.
        case refused
    }

    let kind: Kind
    let description: String
}

extension ObjectSource {
    /// `read`, retried as `download`s are when a failure is temporary.
    func readRetrying(_ key: String, limit: Int, retries: Int) throws -> Data {
        var attempt = 0
        while true {
            do {
                return try read(key, limit: limit)
            } catch let error as TransferError where error.kind == .temporary && attempt < retries {
                Retry.pause(attempt)
                attempt += 1
            }
        }
    }
}

/// The pauses between attempts.
enum Retry {
    /// Waits before attempt `attempt + 1`: 0.5 s, 1 s, 2 s, … at most 8 s.
    static func pause(_ attempt: Int) {
        Thread.sleep(forTimeInterval: min(8, 0.5 * Double(1 << min(attempt, 4))))
    }
}

/// A publication in a local directory (`file:///srv/quakes/`), or on a mounted share.
struct FileObjectSource: ObjectSource {
    let base: URL

    var shown: String { base.absoluteString }

    func read(_ key: String, limit: Int) throws -> Data {
        let url = base.appendingPathComponent(key)
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw TransferError(kind: FileManager.default.fileExists(atPath: base.path) ? .missing : .temporary,
                                description: "\(url.path): no such file")
        }
        defer { try? handle.close() }
        let data = try handle.read(upToCount: limit + 1) ?? Data()
        guard data.count <= limit else { throw TransferError(kind: .refused, description: "\(url.path) has more than \(limit) bytes") }
        return data
    }

    func download(_ key: String, into file: FileHandle, from offset: Int64, expected: Int64,
                  received: @escaping (Int64) -> Void) throws -> Int64 {
        let url = base.appendingPathComponent(key)
        guard let source = try? FileHandle(forReadingFrom: url) else {
            throw TransferError(kind: .missing, description: "\(url.path): no such file")
        }
        defer { try? source.close() }
        try source.seek(toOffset: UInt64(offset))
        var held = offset
        while held < expected, let chunk = try source.read(upToCount: Int(min(1 << 20, expected - held))), !chunk.isEmpty {
            try file.write(contentsOf: chunk)
            held += Int64(chunk.count)
            received(Int64(chunk.count))
        }
        if held == expected, let more = try source.read(upToCount: 1), !more.isEmpty {
            throw TransferError(kind: .refused, description: "\(url.path) is longer than the \(expected) bytes the pointer gives")
        }
        return held
    }
}
