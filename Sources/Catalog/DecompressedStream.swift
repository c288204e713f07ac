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
    /// The file's size as stored, when it is gzip (for the damage of passing the limit).
    private let compressedBytes: Int?
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

    /// Opens the file at `url`, which may decompress to at most `limit` bytes: gzip that inflates
    /// to more is read up to there, and that is its damage (as `InputFile.body` reads it).
    init(url: URL, limit: Int, pieceBytes: Int) throws {
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "cannot read it: \(String(cString: strerror(errno)))") }
        var magic: (UInt8, UInt8) = (0, 0)
        let compressed = pread(descriptor, &magic, 2, 0) == 2 && Gzip.isCompressed(Data([magic.0, magic.1]))
        var status = stat()
        compressedBytes = compressed && fstat(descriptor, &status) == 0 ? Int(status.st_size) : nil
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
    /// or its gzip met damage or the limit (see `damage`). Throws when the file cannot be read
    /// or, plain, grows past the limit as it is read.
    func append(to buffer: inout [UInt8]) throws -> Bool {
        do {
            return try appendPiece(to: &buffer)
        } catch let failure as Gzip.Failure {
            damage = InputFile.readUpToDamage(failure, text: total)
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

    /// Appends the first `count` bytes of the output to `buffer`, up to the limit.
    private func take(_ count: Int, into buffer: inout [UInt8]) throws -> Bool {
        let room = limit - total
        guard count <= room else {
            guard let compressedBytes else {
                throw Failure(description: "more than \(Format.bytes(limit)) (--max-file-size): the file grew as it was read; not read further")
            }
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: output[..<room]))
            total = limit
            damage = InputFile.overInflation(compressedBytes: compressedBytes, limit: limit)
            return room > 0
        }
        total += count
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: output[..<count]))
        return true
    }
}
