import Foundation

/// `read(2)` and `write(2)` as the project's read and write loops use them: a call that a signal
/// interrupted (`EINTR`) is made again, and any other failure is thrown in the system's words,
/// for the caller to name the file.
public enum SystemIO {
    /// A failed call: the system's description of its `errno` (e.g. "Input/output error").
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        fileprivate init(_ description: String? = nil) {
            self.description = description ?? String(cString: strerror(errno))
        }
    }

    /// Reads up to `count` bytes of `descriptor` into `buffer`: how many were read, 0 at the end
    /// of the file.
    public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(Failure) -> Int {
        while true {
            let got = Foundation.read(descriptor, buffer, count)
            if got >= 0 { return got }
            if errno != EINTR { throw Failure() }
        }
    }

    /// Writes all of `bytes` to `descriptor`.
    public static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            // 0 for bytes to write sets no errno: it is said as what it is.
            guard written > 0 else { throw written == 0 ? Failure("no byte written") : Failure() }
            offset += written
        }
    }
}
