import CZlib
import Foundation

/// Reads a CSV file, gzip or plain, one record at a time without holding the whole file.
/// A record ends at a line break outside double quotes; a trailing `\r` is dropped.
///
/// Written over zlib directly because `Gzip.decompress` returns the whole file at once,
/// and the full history file replay reads is 225 MB uncompressed.
final class CSVRecordStream {
    private let handle: FileHandle
    private let isGzip: Bool
    private var zlib = z_stream()
    private let chunkSize = 1 << 18
    private let input: UnsafeMutablePointer<UInt8>
    private let output: UnsafeMutablePointer<UInt8>
    private var memberEnded = false
    private var inputEnded = false
    /// Decompressed bytes not yet returned, scanned up to `cursor`.
    private var buffer: [UInt8] = []
    private var recordStart = 0
    private var cursor = 0
    private var inQuotes = false

    /// Opens `url`; throws when it cannot be read or zlib cannot start.
    init(url: URL) throws {
        handle = try FileHandle(forReadingFrom: url)
        let magic = try handle.read(upToCount: 2) ?? Data()
        try handle.seek(toOffset: 0)
        isGzip = magic == Data([0x1f, 0x8b])
        input = .allocate(capacity: chunkSize)
        output = .allocate(capacity: chunkSize)
        if isGzip && qb_inflateInit2(&zlib, 15 + 16) != Z_OK {
            throw Failure(description: "gzip: inflateInit2 failed")
        }
    }

    deinit {
        if isGzip { inflateEnd(&zlib) }
        input.deallocate()
        output.deallocate()
        try? handle.close()
    }

    /// The next record, or `nil` at the end of the file.
    func next() throws -> [UInt8]? {
        while true {
            if let record = scanRecord() { return record }
            if inputEnded {
                guard recordStart < buffer.count else { return nil }
                let rest = Array(buffer[recordStart...])
                recordStart = buffer.count
                cursor = buffer.count
                return rest.last == 0x0D ? Array(rest.dropLast()) : rest
            }
            if recordStart > 0 {
                buffer.removeFirst(recordStart)
                cursor -= recordStart
                recordStart = 0
            }
            try fill()
        }
    }

    private func scanRecord() -> [UInt8]? {
        while cursor < buffer.count {
            let byte = buffer[cursor]
            cursor += 1
            if byte == 0x22 {
                inQuotes.toggle()
            } else if byte == 0x0A && !inQuotes {
                var end = cursor - 1
                if end > recordStart && buffer[end - 1] == 0x0D { end -= 1 }
                let record = Array(buffer[recordStart..<end])
                recordStart = cursor
                return record
            }
        }
        return nil
    }

    /// Appends the next piece of the file to `buffer`, or sets `inputEnded`.
    private func fill() throws {
        guard isGzip else {
            let data = try handle.read(upToCount: chunkSize) ?? Data()
            if data.isEmpty { inputEnded = true } else { buffer.append(contentsOf: data) }
            return
        }
        if zlib.avail_in == 0 {
            let data = try handle.read(upToCount: chunkSize) ?? Data()
            if data.isEmpty {
                guard memberEnded else { throw Failure(description: "gzip: data is truncated") }
                inputEnded = true
                return
            }
            data.copyBytes(to: input, count: data.count)
            zlib.next_in = input
            zlib.avail_in = uInt(data.count)
        }
        if memberEnded {
            // Another gzip member follows (as `gzip -d` reads concatenated files); anything else ends the data.
            guard zlib.avail_in >= 2, zlib.next_in[0] == 0x1f, zlib.next_in[1] == 0x8b else {
                inputEnded = true
                return
            }
            inflateReset(&zlib)
            memberEnded = false
        }
        zlib.next_out = output
        zlib.avail_out = uInt(chunkSize)
        let status = inflate(&zlib, Z_NO_FLUSH)
        buffer.append(contentsOf: UnsafeBufferPointer(start: output, count: chunkSize - Int(zlib.avail_out)))
        switch status {
        case Z_STREAM_END: memberEnded = true
        case Z_OK, Z_BUF_ERROR: break
        default:
            let message = zlib.msg.map { String(cString: $0) } ?? "code \(status)"
            throw Failure(description: "gzip: corrupt data (\(message))")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
