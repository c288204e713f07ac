import FlyingSocks
import Foundation
import QuakeCommon

/// Bodies a hostile or broken service sends, generated as they go so the stand-in never
/// holds them: endless, huge, or fed a few bytes a second (the `endless`, `big` and `drip`
/// faults). A client must cut each of them off by its own limits.
enum HostileBody: Sendable, Equatable {
    /// A FeatureCollection that never ends: one feature repeated forever (chunked).
    case endless
    /// A FeatureCollection of this many bytes, announced by Content-Length.
    case big(bytes: Int)
    /// The true answer, `bytesPerSecond` bytes a second.
    case drip(Data, bytesPerSecond: Int)

    /// How many bytes the body has, when that is announced.
    var count: Int? {
        switch self {
        case .endless: nil
        case .big(let bytes): bytes
        case .drip(let data, _): data.count
        }
    }

    /// The body as a byte sequence for FlyingFox.
    var sequence: Sequence { Sequence(body: self) }

    static let opening = Data(#"{"type":"FeatureCollection","metadata":{"status":200,"count":0},"features":["#.utf8)
    static let feature = Data(#"{"type":"Feature","properties":{"mag":1.0,"time":0,"updated":0},"geometry":{"type":"Point","coordinates":[0,0,0]},"id":"xx0"},"#.utf8)

    struct Sequence: AsyncBufferedSequence, Sendable {
        typealias Element = UInt8
        let body: HostileBody

        func makeAsyncIterator() -> Iterator { Iterator(body: body) }

        struct Iterator: AsyncBufferedIteratorProtocol {
            let body: HostileBody
            var sent = 0

            mutating func next() async throws -> UInt8? {
                try await nextBuffer(suggested: 1)?.first
            }

            mutating func nextBuffer(suggested count: Int) async throws -> Data? {
                switch body {
                case .drip(let data, let rate):
                    guard sent < data.count else { return nil }
                    try await Task.sleep(for: .milliseconds(1000))
                    let chunk = data.dropFirst(sent).prefix(Swift.max(1, rate))
                    sent += chunk.count
                    return Data(chunk)
                case .endless, .big:
                    let limit = body.count ?? .max
                    guard sent < limit else { return nil }
                    var chunk = sent == 0 ? HostileBody.opening : Data()
                    while chunk.count < Swift.max(count, 64 << 10) { chunk.append(HostileBody.feature) }
                    chunk = chunk.prefix(limit - sent)
                    sent += chunk.count
                    return chunk
                }
            }
        }
    }

    /// A gzip member that inflates to `bytes` zero bytes (a "gzip bomb"): compressed once from
    /// untouched zero pages, so making it costs the stand-in no memory of that size.
    static func gzipBomb(inflatingTo bytes: Int) throws -> Data {
        guard let zeros = calloc(bytes, 1) else { throw QuakeBakeError("cannot allocate \(bytes) bytes for the gzip bomb") }
        defer { free(zeros) }
        return Data(try Gzip.compress(bytes: UnsafeRawBufferPointer(start: zeros, count: bytes), level: 1))
    }
}
