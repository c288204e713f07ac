import CZlib
import Foundation
import QuakeCommon

/// gzip of a whole file into another, a megabyte at a time through zlib's stream (libdeflate,
/// the project's compressor, takes whole buffers: the app database would be held twice). The
/// header carries no time or name, so the same file always gives the same bytes, and so the
/// same key in the store.
enum GzipFile {
    /// Compresses the file at `source` into `destination` (written atomically).
    static func compress(_ source: URL, to destination: URL, level: Int32 = 6) throws {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw QuakeBakeError("cannot read \(source.path): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let temporary = AtomicFile.temporary(destination)
        let output = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw QuakeBakeError("cannot write \(temporary.path): \(String(cString: strerror(errno)))") }
        var stream = z_stream()
        guard qb_deflateInit2(&stream, level, 15 + 16) == Z_OK else {
            close(output)
            throw QuakeBakeError("zlib could not start compressing \(source.path)")
        }
        let size = 1 << 20
        let inBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size), outBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        defer { deflateEnd(&stream); inBuffer.deallocate(); outBuffer.deallocate() }
        do {
            var finished = false
            while !finished {
                let got = try SystemIO.read(input, into: inBuffer, count: size)
                stream.next_in = inBuffer
                stream.avail_in = UInt32(got)
                let flush = got == 0 ? Z_FINISH : Z_NO_FLUSH
                repeat {
                    stream.next_out = outBuffer
                    stream.avail_out = UInt32(size)
                    let result = deflate(&stream, flush)
                    guard result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR else {
                        throw QuakeBakeError("zlib failed compressing \(source.path) (code \(result))")
                    }
                    try SystemIO.write(output, UnsafeRawBufferPointer(start: outBuffer, count: size - Int(stream.avail_out)))
                    if result == Z_STREAM_END { finished = true }
                } while stream.avail_out == 0
            }
            guard fsync(output) == 0 else { throw QuakeBakeError("cannot fsync \(temporary.path)") }
            close(output)
        } catch {
            close(output)
            unlink(temporary.path)
            throw error as? QuakeBakeError ?? QuakeBakeError("cannot compress \(source.path) into \(temporary.path): \(error)")
        }
        guard rename(temporary.path, destination.path) == 0 else {
            unlink(temporary.path)
            throw QuakeBakeError("cannot rename \(temporary.path) to \(destination.path): \(String(cString: strerror(errno)))")
        }
    }
}
