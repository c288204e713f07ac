import Foundation
import QuakeCommon

/// Why a request got no usable answer.
public enum TransferFailure: Error, CustomStringConvertible, Sendable {
    /// No response headers within the connect timeout (counted from the end of the request's body).
    case connectTimeout(TimeInterval)
    /// Silence for this long while the answer's body (or the request's) was under way.
    case readTimeout(TimeInterval)
    /// The whole answer took longer than this.
    case deadline(TimeInterval)
    /// The body is larger than the limit.
    case tooLarge(Int)
    /// The answer's header lines passed a limit (their count or their bytes), or one line
    /// passed libcurl's own limit: said in the words of `description`.
    case headersTooLong(String)
    /// The TLS handshake failed (an untrusted or expired certificate): a configuration
    /// problem that retrying cannot fix.
    case tls(String)
    /// Anything else on the way: refused, reset, a name that does not resolve, a file that
    /// cannot be read or written.
    case broken(String)

    public var description: String {
        switch self {
        case .connectTimeout(let s): return "no response within \(Self.seconds(s)) (connect timeout)"
        case .readTimeout(let s): return "no data for \(Self.seconds(s)) (read timeout)"
        case .deadline(let s): return "the answer took longer than \(Self.seconds(s)) in all (request deadline)"
        case .tooLarge(let limit): return "the answer is larger than \(Format.bytes(limit)) (body limit)"
        case .headersTooLong(let why): return "the answer's headers are too long (\(why))"
        case .tls(let message): return "the TLS connection failed (\(message)); check the URL and the machine's CA certificates"
        case .broken(let message): return "connection failed: \(message)"
        }
    }

    private static func seconds(_ s: TimeInterval) -> String { String(format: "%g s", s) }
}
