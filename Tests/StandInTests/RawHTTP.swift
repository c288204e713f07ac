import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bare HTTP/1.1 GET over a socket, for what URLSession hides: the raw gzip bytes,
/// a body that stops short of its Content-Length, a server that does not answer in time.
struct RawHTTP {
    var status: Int
    var headers: [String: String]
    var body: Data
    /// Content-Length as announced.
    var contentLength: Int?
    /// True when the connection closed before the announced body was complete.
    var cutShort: Bool { contentLength.map { body.count < $0 } ?? false }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// GETs `url` (http://127.0.0.1:PORT/…) with extra `headers`; gives up after `timeout` seconds of silence.
    static func get(_ url: URL, headers: [String: String] = [:], timeout: Double = 30) throws -> RawHTTP {
        guard let port = url.port else { throw Failure(description: "no port in \(url)") }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "cannot connect to \(url)") }
        let target = url.path + (url.query.map { "?" + $0 } ?? "")
        var request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }

        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 { received.append(contentsOf: buffer[0..<n]); continue }
            if n == 0 { break }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw Failure(description: "timed out after \(timeout) s") }
            break  // reset by peer: keep what arrived
        }
        guard let end = received.firstRange(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "no complete header in \(received.count) bytes")
        }
        let lines = String(decoding: received[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return RawHTTP(status: status, headers: fields, body: Data(received[end.upperBound...]),
                       contentLength: fields["content-length"].flatMap { Int($0) })
    }
}
