import CZlib
import Foundation

extension Gzip {
    /// Compresses into one gzip member a piece at a time, straight into a file, for output
    /// too large to hold twice in memory (text and compressed copy).
    ///
    /// Through zlib (libdeflate, behind `Gzip.compress`, has no streaming interface); its
    /// output does not depend on how the input is cut when nothing is flushed before the end.
    ///
    /// ```swift
    /// let gzip = try Gzip.Compressor(writingTo: url)
    /// try gzip.write(piece)      // as often as needed
    /// try gzip.finish()          // the member's end; closes the file
    /// ```
    public final class Compressor {
        /// zlib's state, at a fixed address (zlib refuses a stream that moved).
        private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        private var output = [UInt8](repeating: 0, count: 1 << 16)
        private let file: FileHandle
        private let url: URL
        private var finished = false

        /// Creates (or truncates) the file at `url` and starts a member at `level`.
        public init(writingTo url: URL, level: Int32 = 6) throws {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw Failure(description: "cannot create \(url.path)")
            }
            file = try FileHandle(forWritingTo: url)
            self.url = url
            stream.initialize(to: z_stream())
            guard qb_deflateInit2(stream, level, 15 + 16) == Z_OK else {
                stream.deallocate()
                try? file.close()
                throw Failure(description: "gzip: deflateInit2 failed")
            }
        }

        deinit {
            deflateEnd(stream)
            stream.deallocate()
            if !finished { try? file.close() }
        }

        /// Compresses `bytes`, writing whatever zlib hands out.
        public func write(_ bytes: UnsafeRawBufferPointer) throws {
            guard !bytes.isEmpty else { return }
            stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.bindMemory(to: Bytef.self).baseAddress)
            stream.pointee.avail_in = uInt(bytes.count)
            while stream.pointee.avail_in > 0 { _ = try drain(Z_NO_FLUSH) }
        }

        /// Ends the member, writes the rest and closes the file.
        public func finish() throws {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
            while try drain(Z_FINISH) != Z_STREAM_END {}
            finished = true
            try file.close()
        }

        /// One deflate call into the output buffer; writes what it produced.
        private func drain(_ flush: Int32) throws -> Int32 {
            let (status, produced) = output.withUnsafeMutableBytes { out -> (Int32, Int) in
                stream.pointee.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.pointee.avail_out = uInt(out.count)
                let status = deflate(stream, flush)
                return (status, out.count - Int(stream.pointee.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw Failure(description: "gzip: deflate failed (\(status)) writing \(url.path)")
            }
            if produced > 0 { try file.write(contentsOf: output[..<produced]) }
            return status
        }
    }
}
