import Foundation
import QuakeCommon

/// Where a publication goes: `s3://BUCKET/PREFIX` on AWS (virtual-hosted addressing,
/// `https://BUCKET.s3.REGION.amazonaws.com/KEY`) or on the store at `endpoint` (path-style,
/// `ENDPOINT/BUCKET/KEY`, what SeaweedFS, MinIO and Ceph need).
public struct S3Target: Sendable, Equatable, CustomStringConvertible {
    public let bucket: String
    /// The key prefix without a trailing slash; empty for the bucket's top.
    public let prefix: String
    public let endpoint: URL?
    public let region: String

    /// Parses `s3://BUCKET[/PREFIX]`; `endpoint` an http(s) URL. Throws (exit 64) on what cannot be one.
    public init(_ text: String, endpoint: String?, region: String?) throws {
        func bad(_ why: String) -> QuakeBakeError { QuakeBakeError(why, exitStatus: .usage) }
        guard text.hasPrefix("s3://") else { throw bad("--to \"\(text)\" is not s3://BUCKET/PREFIX") }
        let rest = text.dropFirst(5)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        bucket = String(rest[..<slash])
        guard (3...63).contains(bucket.count),
              bucket.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x2E }),
              bucket.first.map({ $0.isLetter || $0.isNumber }) == true, bucket.last.map({ $0.isLetter || $0.isNumber }) == true else {
            throw bad("--to \"\(text)\": \"\(bucket)\" is not a bucket name (3 to 63 lowercase letters, digits, dots and hyphens)")
        }
        let path = slash < rest.endIndex ? rest[rest.index(after: slash)...] : ""
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let trimmed = segments.last == "" ? segments.dropLast() : segments[...]
        guard trimmed.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
              path.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }), path.utf8.count <= 512 else {
            throw bad("--to \"\(text)\": the prefix must be path segments without empty, \".\" or \"..\" ones or control characters")
        }
        prefix = trimmed.joined(separator: "/")
        if let endpoint {
            guard let url = URL(string: endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint),
                  ["http", "https"].contains(url.scheme ?? ""), url.host != nil, url.query == nil else {
                throw bad("--endpoint \"\(endpoint)\" is not an http(s) URL")
            }
            self.endpoint = url
        } else {
            self.endpoint = nil
        }
        let region = region ?? ProcessInfo.processInfo.environment["AWS_REGION"] ?? ProcessInfo.processInfo.environment["AWS_DEFAULT_REGION"]
        self.region = region.flatMap { $0.isEmpty ? nil : $0 } ?? "us-east-1"
        guard self.region.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }) else {
            throw bad("--region \"\(self.region)\" is not a region name (like eu-west-1)")
        }
    }

    public var description: String { "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)") }

    /// The full key of `relative` (a key under the prefix).
    public func key(_ relative: String) -> String { prefix.isEmpty ? relative : "\(prefix)/\(relative)" }

    /// The key relative to the prefix, or `nil` when `key` is not under it.
    public func relative(_ key: String) -> String? {
        if prefix.isEmpty { return key }
        return key.hasPrefix(prefix + "/") ? String(key.dropFirst(prefix.count + 1)) : nil
    }

    /// The scheme, host and port requests go to.
    var origin: URL {
        if let endpoint { return endpoint }
        let host = bucket.contains(".") ? "s3.\(region).amazonaws.com" : "\(bucket).s3.\(region).amazonaws.com"
        return URL(string: "https://\(host)")!
    }

    /// Whether the bucket is in the path (`--endpoint`, or a bucket name with dots, whose
    /// virtual host no wildcard certificate covers) rather than in the host.
    var pathStyle: Bool { endpoint != nil || bucket.contains(".") }

    /// The `Host` header as curl sends it for `origin`.
    var host: String {
        let url = origin
        return url.port.map { "\(url.host!):\($0)" } ?? url.host!
    }

    /// The percent-encoded path of a full `key`, or of the bucket when `nil`.
    func encodedPath(_ key: String?) -> String {
        let base = (endpoint?.path ?? "") + (pathStyle ? "/\(bucket)" : "")
        guard let key else { return base.isEmpty ? "/" : base + (pathStyle ? "" : "/") }
        return base + "/" + SigV4Signer.uriEncode(key, keepSlash: true)
    }
}
