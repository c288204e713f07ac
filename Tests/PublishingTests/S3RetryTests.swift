import Foundation
import Logging
import QuakeCommon
import QuakeHTTP
@testable import QuakePublish
import Testing
import TestSupport

/// How the S3 client meets a busy store (issue 44.4), against a loopback server answering as
/// a busy S3 does: `SlowDown` and 5xx retried, `Retry-After` obeyed up to its bound and the
/// store then unavailable (exit 75), a refusal not retried (exit 1).
@Suite struct S3RetryTests {
    static let slowDown = Data("<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>".utf8)

    static func client(_ server: LoopbackHTTPServer) throws -> S3Client {
        S3Client(target: try S3Target("s3://quakes/maps", endpoint: server.url("").absoluteString, region: nil),
                 credentials: S3Credentials(accessKeyID: "AKIDRETRY", secretAccessKey: "retry/Secret", source: "test"),
                 timeouts: HTTPTimeouts(connect: 120, read: 120, deadline: 300),
                 retry: RetryPolicy(maxAttempts: 4, baseDelay: 0.05, maxDelay: 0.1, maxRetryAfter: 5, giveUpAfter: 3600), logger: Logger(label: "test"))
    }

    @Test func slowDownIsRetriedAfterTheWaitTheStoreAsks() async throws {
        let count = Counter()
        let server = try LoopbackHTTPServer { _ in
            count.next() <= 2 ? LoopbackHTTPServer.response("503 Slow Down", headers: ["Retry-After: 1"], body: Self.slowDown)
                : LoopbackHTTPServer.response("200 OK", headers: ["ETag: \"e\""])
        }
        defer { server.close() }
        let client = try Self.client(server)
        defer { client.close() }
        let data = Data("bytes".utf8)
        let started = Date()
        let answer = try await client.put("maps/objects/x", body: .bytes(data), digests: FileDigests.of(data),
                                          headers: ObjectHeaders(contentType: "text/plain", cacheControl: ObjectKinds.immutable))
        #expect(answer.status == 200 && count.value == 3)
        #expect(Date().timeIntervalSince(started) >= 2, "the two waits of 1 s the store asked for")
    }

    @Test func aWaitPastTheBoundOrEndlessErrorsAreUnavailableAndARefusalIsFinal() async throws {
        var servers: [LoopbackHTTPServer] = []  // all open to the end: a closed one's port and descriptor are not reused meanwhile
        defer { servers.forEach { $0.close() } }
        for (status, headers, body, exit, words) in [
            ("503 Slow Down", ["Retry-After: 3600"], Self.slowDown, ExitStatus.temporaryFailure, "asks to wait 60 min, longer than the 5 s allowed"),
            ("500 Internal Server Error", [], Data("<Error><Code>InternalError</Code></Error>".utf8), .temporaryFailure, "after 4 attempts"),
            ("403 Forbidden", [], Data("<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>".utf8), .failure, "AccessDenied"),
        ] {
            let count = Counter()
            let server = try LoopbackHTTPServer { _ in
                _ = count.next()
                return LoopbackHTTPServer.response(status, headers: headers, body: body)
            }
            servers.append(server)
            let client = try Self.client(server)
            defer { client.close() }
            var last: S3Failure?
            do {
                _ = try await client.get("maps/current.json", limit: 1 << 20)
                Issue.record("\(status): an answer")
            } catch let failure as S3Failure {
                last = failure
                #expect(failure.exitStatus == exit && "\(failure)".contains(words), "\(status): \(failure)")
                #expect(!"\(failure)".contains("retry/Secret"))
            }
            #expect(count.value == (exit == .failure ? 1 : (status.hasPrefix("500") ? 4 : 1)), "\(status): \(count.value) requests, \(String(describing: last))")
        }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func next() -> Int { lock.withLock { count += 1; return count } }
        var value: Int { lock.withLock { count } }
    }
}
