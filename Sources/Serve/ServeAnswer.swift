import Foundation
import NIOCore
import NIOHTTP1

/// One answer of `serve`: status, headers and a body of bytes, of a file sent as it is
/// (`sendfile`: an app database of hundreds of megabytes is never read into memory), or none.
struct ServeAnswer: @unchecked Sendable {
    enum Body {
        case none
        case bytes(ByteBuffer)
        /// An open file and its size; the handler closes it once sent.
        case file(NIOFileHandle, size: Int)
    }

    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var body: Body

    /// The body's length in bytes.
    var length: Int {
        switch body {
        case .none: return 0
        case .bytes(let buffer): return buffer.readableBytes
        case .file(_, let size): return size
        }
    }

    static func bytes(_ buffer: ByteBuffer, type: String, cache: String) -> ServeAnswer {
        ServeAnswer(status: .ok, headers: HTTPHeaders([("Content-Type", type), ("Cache-Control", cache)]), body: .bytes(buffer))
    }

    static func text(_ status: HTTPResponseStatus, _ text: String) -> ServeAnswer {
        ServeAnswer(status: status, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]), body: .bytes(ByteBuffer(string: text)))
    }

    /// The regular file at `url`, opened, or `nil` when there is none (a directory, a device, a
    /// FIFO — opened without waiting for a writer — or nothing at all are not files of a bundle).
    static func file(_ url: URL, type: String) -> ServeAnswer? {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return nil
        }
        // NIOFileHandle is NIO's handle for `FileRegion` (sendfile); the `_deprecated` spelling is
        // its current one until NIO's file system module replaces it.
        return ServeAnswer(status: .ok, headers: HTTPHeaders([("Content-Type", type), ("Cache-Control", "no-cache")]),
                           body: .file(NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor), size: Int(info.st_size)))
    }
}
