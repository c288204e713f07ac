import FlyingFox
import FlyingSocks
import Foundation
import Logging

/// `quake-bake serve`: the current bundle over HTTP for MapLibre GL JS in a browser, on
/// loopback unless told otherwise. See `BundleHTTPHandler` for what it answers.
public final class BundleServer: Sendable {
    private let http: HTTPServer
    private let host: String

    /// A server for the bundle `locate` finds (called for every request), on `host:port`
    /// (`port` 0: a free one).
    public init(host: String, port: UInt16, logger: Logger, locate: @escaping @Sendable () throws -> URL) throws {
        let address: sockaddr_in
        do { address = try .inet(ip4: host, port: port) } catch {
            throw ServeError("cannot listen on \(host):\(port): \(error)")
        }
        self.host = host
        http = HTTPServer(address: address, timeout: 60, logger: DisabledLogger.disabled,
                          handler: BundleHTTPHandler(locate: locate, archives: ArchiveCache(), logger: logger))
    }

    /// Serves until cancelled; `onListening` gets the page's URL once the socket listens.
    public func run(onListening: @Sendable (URL) -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.http.run() }
            try await http.waitUntilListening(timeout: 30)
            guard case .ip4(let ip, let port)? = await http.listeningAddress, let url = URL(string: "http://\(ip):\(port)/") else {
                throw ServeError("the server did not report its address")
            }
            onListening(url)
            try await group.next()
        }
    }
}
