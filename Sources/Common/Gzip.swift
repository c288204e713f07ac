import CZlib
import Foundation

/// gzip compression through the system zlib.
///
/// Output is deterministic: zlib writes no file name and a zero modification time,
/// so the same input and level always give the same bytes (bundles must be byte-reproducible).
public enum Gzip {
    /// An error from zlib, with its message.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// True when `data` starts with the gzip magic bytes.
    public static func isCompressed(_ data: Data) -> Bool {
        data.count >= 2 && data[data.startIndex] == 0x1f && data[data.startIndex + 1] == 0x8b
    }

    /// Compresses `data` into one gzip member.
    public static func compress(_ data: Data, level: Int32 = 6) throws -> Data {
        var stream = z_stream()
        guard qb_deflateInit2(&stream, level, 15 + 16) == Z_OK else {
            throw Failure(description: "gzip: deflateInit2 failed")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(data.count))) + 32
        var output = Data(count: bound)
        let status: Int32 = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) in
            output.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else {
            throw Failure(description: "gzip: deflate failed (\(status))")
        }
        output.count = Int(stream.total_out)
        return output
    }

    /// Decompresses gzip data (all members, as `gzip -d` does).
    /// Throws on corrupt or truncated input rather than returning a partial result.
    public static func decompress(_ data: Data) throws -> Data {
        let decompressor = try Decompressor()
        decompressor.feed(data)
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let produced = try buffer.withUnsafeMutableBytes { try decompressor.read(into: $0) }
            if produced == 0 { break }
            output.append(contentsOf: buffer[..<produced])
        }
        try decompressor.finish()
        return output
    }

    /// Returns `data` decompressed when it is gzip, unchanged otherwise.
    public static func decompressIfNeeded(_ data: Data) throws -> Data {
        isCompressed(data) ? try decompress(data) : data
    }
}
