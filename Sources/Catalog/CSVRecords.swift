import Foundation
import QuakeCommon

/// The records of a CSV file, gzip or plain, one at a time, without holding the whole file
/// (the history file `usgs-stand-in --replay` reads is 225 MB uncompressed). A record ends
/// where `CSVRows` ends a row (`RecordScan`, as `CatalogStream` cuts its pieces): at `\n`,
/// `\r\n` or a lone `\r` outside a quoted cell; the line break is not part of the record.
public final class CSVRecords {
    private let stream: DecompressedStream
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    /// Opens `url`; throws when it cannot be read. Reading throws at damaged gzip and past
    /// `InputFile`'s limits (what the file may inflate to), after the whole records before them,
    /// and at a record longer than `CatalogStream.longestRecord`.
    public init(url: URL) throws {
        let size = InputFile.regularFileSize(of: url) ?? 0
        stream = try DecompressedStream(url: url, limit: InputFile.inflationLimit(compressedBytes: size), pieceBytes: 1 << 18)
    }

    /// The next record, or `nil` at the end of the file.
    public func next() throws -> [UInt8]? {
        while true {
            var scan = RecordScan()
            if let end = scan.lastEnd(in: buffer, from: start, firstOnly: true) {
                defer { start = end }
                return Self.trimmed(buffer[start..<(end - 1)])
            }
            if ended {
                // Damaged gzip, or gzip past the limit: the whole records before it were read, the cut one is not.
                if let damage = stream.damage { throw DecompressedStream.Failure(description: damage) }
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return Self.trimmed(buffer[start...])
            }
            buffer.removeFirst(start)
            start = 0
            guard buffer.count <= CatalogStream.longestRecord else {
                throw DecompressedStream.Failure(description: "a record longer than \(Format.bytes(CatalogStream.longestRecord)); not read further")
            }
            if try !stream.append(to: &buffer) { ended = true }
        }
    }

    private static func trimmed(_ record: ArraySlice<UInt8>) -> [UInt8] {
        Array(record.last == 0x0D ? record.dropLast() : record)
    }
}
