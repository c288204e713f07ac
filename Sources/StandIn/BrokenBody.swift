import FlyingSocks
import Foundation

/// A response body that yields its bytes and then fails, so FlyingFox closes the
/// connection after sending them: with a full Content-Length announced, the client
/// sees the body break off mid-way (the disconnect fault).
struct BrokenBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    /// The part of the body sent before the break.
    let part: Data

    func makeAsyncIterator() -> Iterator { Iterator(remaining: part) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var remaining: Data

        mutating func next() async throws -> UInt8? {
            guard let byte = remaining.first else { throw Break() }
            remaining = remaining.dropFirst()
            return byte
        }

        mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            guard !remaining.isEmpty else { throw Break() }
            let chunk = remaining.prefix(count)
            remaining = remaining.dropFirst(chunk.count)
            return chunk
        }
    }

    /// Ends the body: the connection is closed without sending the rest.
    struct Break: Error {}
}
