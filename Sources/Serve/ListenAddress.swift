import Foundation
import NIOCore
import QuakeCommon

/// Where `serve` listens (`--host`): an IPv4 address, an IPv6 address (`::1`, `[::1]`,
/// `fe80::1%eth0`) or a name resolved once (`localhost`), and the URL a person can open.
public struct ListenAddress: Sendable {
    /// The host as given, brackets removed.
    public let host: String
    /// The address to bind, with port 0 (the port is the server's).
    let socketAddress: SocketAddress

    /// Resolves `--host`; a usage error names what is wrong with it.
    public init(host given: String) throws {
        var text = given.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        host = text
        guard !text.isEmpty else { throw QuakeBakeError("--host is empty: give an address (127.0.0.1, ::1) or a name (localhost)", exitStatus: .usage) }
        if text.allSatisfy({ $0 == "." || $0.isASCII && $0.isNumber }) {
            // Digits and dots are an IPv4 address, never a name to look up (300.1.1.1 is a mistake, not a host).
            var address = in_addr()
            guard inet_pton(AF_INET, text, &address) == 1 else {
                throw QuakeBakeError("--host \(text) is not an IPv4 address: four numbers 0–255 separated by dots, as 127.0.0.1", exitStatus: .usage)
            }
            socketAddress = try Self.resolve(text, family: AF_INET, numeric: true)
        } else if text.contains(":") {
            do {
                socketAddress = try Self.resolve(text, family: AF_INET6, numeric: true)
            } catch {
                throw QuakeBakeError("--host \(text) is not an IPv6 address (as ::1, or :: for every interface)", exitStatus: .usage)
            }
        } else {
            do {
                socketAddress = try Self.resolve(text, family: AF_UNSPEC, numeric: false)
            } catch let error as ResolveError {
                throw QuakeBakeError("--host \(text): the name cannot be resolved (\(error.message))", exitStatus: .usage)
            }
        }
    }

    /// True for 127.0.0.0/8, ::1 and ::ffff:127.x.x.x: only this machine can connect.
    var isLoopback: Bool {
        switch socketAddress {
        case .v4(let v4): return UInt32(bigEndian: v4.address.sin_addr.s_addr) >> 24 == 127
        case .v6(let v6):
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
            return bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        default: return false
        }
    }

    /// True for 0.0.0.0 and ::: every interface.
    var isEveryInterface: Bool {
        switch socketAddress {
        case .v4(let v4): return v4.address.sin_addr.s_addr == 0
        case .v6(let v6): return withUnsafeBytes(of: v6.address.sin6_addr) { $0.allSatisfy { $0 == 0 } }
        default: return false
        }
    }

    /// The page's URL on `port`: the name or address as given (IPv6 in brackets, a zone's `%`
    /// escaped); for every interface, loopback of the same family, which always answers.
    func pageURL(port: Int) -> URL {
        URL(string: "http://\(Self.urlHost(isEveryInterface ? (isIPv6 ? "::1" : "127.0.0.1") : host)):\(port)/")!
    }

    /// For every interface: a URL other machines can open (the first address of an interface
    /// that is up and not loopback, of the listening family or IPv4), or `nil` when there is none.
    func sharedURL(port: Int) -> URL? {
        guard isEveryInterface else { return nil }
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(first) }
        var found: [Int32: String] = [:]
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0 else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6, found[family] == nil else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            if getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                found[family] = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        guard let address = found[AF_INET] ?? (isIPv6 ? found[AF_INET6] : nil) else { return nil }
        return URL(string: "http://\(Self.urlHost(address)):\(port)/")
    }

    private var isIPv6: Bool {
        if case .v6 = socketAddress { return true }
        return false
    }

    /// `host` as a URL writes it: an IPv6 address in brackets, with `%` of a zone as `%25`.
    private static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host.replacingOccurrences(of: "%", with: "%25"))]" : host
    }

    private struct ResolveError: Error { let message: String }

    /// The first address `getaddrinfo` gives for `host` (passive: for binding), port 0.
    private static func resolve(_ host: String, family: Int32, numeric: Bool) throws -> SocketAddress {
        var hints = addrinfo()
        hints.ai_family = family
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | (numeric ? AI_NUMERICHOST : 0)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, "0", &hints, &results)
        guard status == 0, let first = results else { throw ResolveError(message: String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(first) }
        for entry in sequence(first: first, next: { $0.pointee.ai_next }) {
            guard let address = entry.pointee.ai_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { SocketAddress($0.pointee, host: host) }
            case AF_INET6:
                return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { SocketAddress($0.pointee, host: host) }
            default:
                continue
            }
        }
        throw ResolveError(message: "no IPv4 or IPv6 address")
    }
}
