import Foundation
import QuakeCommon

/// A file's bytes, decompressed when it is gzip, read a piece at a time, within a limit.
///
/// The file is read with `read(2)` into one buffer kept for the whole file (and inflated into
/// another): a fresh `Data` for each piece cost a new mapping of a few MB and a page fault for
/// every 4 KB of it, about a fifth of the reading thread's time on a 300 MB file.
final class DecompressedStream {
    /// Why the stream stopped.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let descriptor: Int32
    private let path: String
    /// Set when the file is gzip.
    private let gzip: Gzip.Decompressor?
    private let output: UnsafeMutableRawBufferPointer
    /// The compressed bytes read last, when the file is gzip (the decompressor reads them in place).
    private let input: UnsafeMutableRawBufferPointer
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
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "cannot read it: \(String(cString: strerror(errno)))") }
        var magic: (UInt8, UInt8) = (0, 0)
        let compressed = pread(descriptor, &magic, 2, 0) == 2 && Gzip.isCompressed(Data([magic.0, magic.1]))
        do {
            gzip = compressed ? try Gzip.Decompressor() : nil
        } catch {
            close(descriptor)
            throw error
        }
        output = .allocate(byteCount: max(pieceBytes, 1), alignment: 8)
        input = .allocate(byteCount: compressed ? max(pieceBytes / 4, 1) : 1, alignment: 8)
        self.limit = limit
    }

    deinit {
        output.deallocate()
        input.deallocate()
        close(descriptor)
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
            let into = gzip == nil ? output : input
            let count = try readSome(into: into)
            if count == 0 {
                inputEnded = true
                try gzip?.finish()
                return false
            }
            guard let gzip else { return try take(count, into: &buffer) }
            // The decompressor reads these bytes in place; they are not read over before it has used them all up.
            gzip.feed(Data(bytesNoCopy: into.baseAddress!, count: count, deallocator: .none))
        }
        return false
    }

    /// Reads up to `buffer.count` bytes of the file into `buffer`; 0 at its end.
    private func readSome(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        do {
            return try SystemIO.read(descriptor, into: buffer.baseAddress!, count: buffer.count)
        } catch {
            throw Failure(description: "cannot read it: \(error)")
        }
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
