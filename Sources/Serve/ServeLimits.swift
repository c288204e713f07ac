import Foundation
import NIOCore
import QuakeCommon

/// What one `serve` grants a client: the size of a request head, the time to send it, how long
/// an answer may stall, and how many connections are held at once.
public struct ServeLimits: Sendable {
    /// The longest request line (method, target, version): longer is 414 URI Too Long.
    public var requestLineBytes = 8 * 1024
    /// The longest header line: longer is 431 Request Header Fields Too Large.
    public var headerLineBytes = 8 * 1024
    /// The most header lines: more is 431.
    public var headerCount = 100
    /// The largest request head, request line and headers together: larger is 431.
    public var headBytes = 32 * 1024
    /// Seconds a connection has to send a complete request head, counted from when the server
    /// waits for one (connected, or its last answer sent): past it, 408 (or a plain close when
    /// nothing was sent). Bytes sent one by one do not extend it.
    public var requestSeconds = 10
    /// Seconds an answer may wait for a client that reads none of it, before the connection is closed.
    public var stallSeconds = 60
    /// Connections held at once; past it, the one silent longest is closed to make room
    /// (`nil`: as many as the descriptor limit leaves room for, at most 1,024).
    public var maxConnections: Int?

    public init() {}

    /// Checks the limits given on the command line.
    func validate() throws -> ServeLimits {
        var limits = self
        if let maxConnections, maxConnections < 1 { throw QuakeBakeError("--max-connections must be at least 1, not \(maxConnections)", exitStatus: .usage) }
        guard (1...3600).contains(requestSeconds) else { throw QuakeBakeError("--timeout must be 1…3600 seconds, not \(requestSeconds)", exitStatus: .usage) }
        limits.maxConnections = maxConnections ?? Self.connectionsTheDescriptorsAllow()
        return limits
    }

    /// Descriptors left for connections: the soft `RLIMIT_NOFILE` less 32 for the process's
    /// own (standard streams, the listening socket, the bundle's databases, the event loop),
    /// at least 4, at most 1,024.
    static func connectionsTheDescriptorsAllow() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 256 }
        let soft = Int(clamping: limit.rlim_cur)  // RLIM_INFINITY: the largest value, clamped
        return max(4, min(1_024, soft - 32))
    }

    var request: TimeAmount { .seconds(Int64(requestSeconds)) }
    var stall: TimeAmount { .seconds(Int64(stallSeconds)) }
}
