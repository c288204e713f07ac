import Foundation
import QuakeCommon

/// A file's bytes, decompressed when it is gzip, read a piece at a time, within a limit.
final class DecompressedStream {
    /// Why the stream stopped.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let handle: FileHandle
    private let path: String
    /// Set when the file is gzip.
    private let gzip: Gzip.Decompressor?
    private let output: UnsafeMutableRawBufferPointer
    private let limit: Int
    private var inputEnded = false
    /// Decompressed bytes handed out so far.
    private(set) var total = 0
    /// What was wrong with the gzip, once the stream met damage (it then ends there, as `gzip -d`
    /// does: what came before is read).
    private(set) var damage: String?

    /// Opens the file at `url`, which may decompress to at most `limit` bytes.
    init(url: URL, limit: Int, pieceBytes: Int) throws {
        path = url.path
        handle = try FileHandle(forReadingFrom: url)
        let magic = try handle.read(upToCount: 2) ?? Data()
        try handle.seek(toOffset: 0)
        gzip = Gzip.isCompressed(magic) ? try Gzip.Decompressor() : nil
        output = .allocate(byteCount: max(pieceBytes, 1), alignment: 8)
        self.limit = limit
    }

    deinit {
        output.deallocate()
        try? handle.close()
    }

    /// Appends the next piece of the file's bytes to `buffer`; false once the file has ended,
    /// or its gzip met damage (see `damage`). Throws when the file cannot be read or it passes the limit.
    func append(to buffer: inout [UInt8]) throws -> Bool {
        do {
            return try appendPiece(to: &buffer)
        } catch let failure as Gzip.Failure {
            damage = "\(failure.description); read up to there (\(Format.bytes(total)) of text)"
            inputEnded = true
            return false
        }
    }

    private func appendPiece(to buffer: inout [UInt8]) throws -> Bool {
        while damage == nil {
            if let gzip {
                let produced = try gzip.read(into: output)
                if produced > 0 { return try take(produced, into: &buffer) }
            }
            if inputEnded { return false }
            let data = try handle.read(upToCount: output.count) ?? Data()
            if data.isEmpty {
                inputEnded = true
                try gzip?.finish()
                return false
            }
            guard let gzip else {
                total += data.count
                try checkLimit()
                buffer.append(contentsOf: data)
                return true
            }
            gzip.feed(data)
        }
        return false
    }

    /// Reads the rest of the file without keeping it (within the limit), to its end or its gzip damage.
    func drain() throws {
        var rest: [UInt8] = []
        while try append(to: &rest) { rest.removeAll(keepingCapacity: true) }
    }

    private func take(_ count: Int, into buffer: inout [UInt8]) throws -> Bool {
        total += count
        try checkLimit()
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: output[..<count]))
        return true
    }

    private func checkLimit() throws {
        guard total <= limit else {
            throw Failure(description: "\(path): more than \(Format.bytes(limit)) once decompressed (at most \(InputFile.inflationRatio) times its size, and --max-file-size); not read further")
        }
    }
}
