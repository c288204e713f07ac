import Foundation
import QuakeCommon

/// Reads a CSV file, gzip or plain, one record at a time without holding the whole file
/// (the full history file replay reads is 225 MB uncompressed).
/// A record ends at a line break outside double quotes; a trailing `\r` is dropped.
final class CSVRecordStream {
    private let handle: FileHandle
    /// Set when the file is gzip.
    private let gzip: Gzip.Decompressor?
    private let chunkSize = 1 << 18
    /// Where one piece of decompressed output lands.
    private let output: UnsafeMutableBufferPointer<UInt8>
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
        gzip = Gzip.isCompressed(magic) ? try Gzip.Decompressor() : nil
        output = .allocate(capacity: chunkSize)
    }

    deinit {
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

    /// Appends the next piece of the file to `buffer`, feeds the decompressor, or sets `inputEnded`.
    private func fill() throws {
        if let gzip {
            let produced = try gzip.read(into: UnsafeMutableRawBufferPointer(output))
            if produced > 0 {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: output[..<produced]))
                return
            }
        }
        let data = try handle.read(upToCount: chunkSize) ?? Data()
        if data.isEmpty {
            try gzip?.finish()
            inputEnded = true
        } else if let gzip {
            gzip.feed(data)
        } else {
            buffer.append(contentsOf: data)
        }
    }
}
