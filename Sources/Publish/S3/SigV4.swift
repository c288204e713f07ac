import CCrypto
import Foundation

/// AWS Signature Version 4 (the `Authorization` header form), written by hand because the
/// package mirror offers only whole SDKs for it (the request signing is ~100 lines; an SDK is
/// minutes of build). Checked against AWS's published test vectors (the signature v4 test
/// suite and the S3 examples) and against botocore signing the same requests (SigV4Tests).
///
/// The S3 flavour: the path is signed as sent (each segment percent-encoded once by the
/// caller, no dot-segment normalisation), and the payload's sha256 travels in
/// `x-amz-content-sha256` (the caller adds it; `payloadSHA256` here is what is signed).
public struct SigV4Signer: Sendable {
    public let credentials: S3Credentials
    public let region: String
    public let service: String

    public init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// One request to sign: the path as sent (percent-encoded), its query (names and values
    /// unencoded; `nil` for a name without a value), its header lines (`host` among them).
    public struct Request: Sendable {
        public var method: String
        public var encodedPath: String
        public var query: [(name: String, value: String?)]
        public var headers: [(name: String, value: String)]
        public var payloadSHA256: String

        public init(method: String, encodedPath: String, query: [(name: String, value: String?)] = [],
                    headers: [(name: String, value: String)], payloadSHA256: String) {
            self.method = method
            self.encodedPath = encodedPath
            self.query = query
            self.headers = headers
            self.payloadSHA256 = payloadSHA256
        }
    }

    /// The header lines to add for `request` signed at `date`: `x-amz-date`,
    /// `x-amz-security-token` with a session token, and `Authorization`.
    public func sign(_ request: Request, at date: Date) -> [(name: String, value: String)] {
        let (amzDate, day) = Self.stamps(date)
        var headers = request.headers + [("x-amz-date", amzDate)]
        if let token = credentials.sessionToken { headers.append(("x-amz-security-token", token)) }
        let (canonical, signedHeaders) = canonicalRequest(request, headers: headers)
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, Self.hex(Self.sha256(Array(canonical.utf8)))].joined(separator: "\n")
        var key = Array("AWS4\(credentials.secretAccessKey)".utf8)
        for part in [day, region, service, "aws4_request"] { key = Self.hmac(key: key, Array(part.utf8)) }
        let signature = Self.hex(Self.hmac(key: key, Array(stringToSign.utf8)))
        return headers.dropFirst(request.headers.count) + [(
            "Authorization",
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
        )]
    }

    /// The canonical request and the signed header names (`a;b;c`).
    func canonicalRequest(_ request: Request, headers: [(name: String, value: String)]) -> (String, String) {
        var byName: [String: [String]] = [:]
        for (name, value) in headers {
            let words = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            byName[name.lowercased(), default: []].append(words)
        }
        let names = byName.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(byName[$0]!.joined(separator: ","))\n" }.joined()
        let pairs: [(String, String)] = request.query.map { (Self.uriEncode($0.name), Self.uriEncode($0.value ?? "")) }
        let sorted = pairs.sorted { (a: (String, String), b: (String, String)) -> Bool in a.0 != b.0 ? a.0 < b.0 : a.1 < b.1 }
        let query = sorted.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let signed = names.joined(separator: ";")
        let path = request.encodedPath.isEmpty ? "/" : request.encodedPath
        return ([request.method, path, query, canonicalHeaders, signed, request.payloadSHA256].joined(separator: "\n"), signed)
    }

    /// AWS's UriEncode: every byte but `A-Z a-z 0-9 - _ . ~` as `%XY` (and `/` too unless `keepSlash`).
    public static func uriEncode(_ text: String, keepSlash: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x5F, 0x2E, 0x7E: out.unicodeScalars.append(UnicodeScalar(byte))
            case 0x2F where keepSlash: out.append("/")
            default: out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// `20150830T123600Z` and `20150830` for `date`.
    static func stamps(_ date: Date) -> (String, String) {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        let day = String(format: "%04d%02d%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
        return (day + String(format: "T%02d%02d%02dZ", parts.tm_hour, parts.tm_min, parts.tm_sec), day)
    }

    static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &out, &length)
        return Array(out[0..<Int(length)])
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = EVP_Digest(bytes, bytes.count, &out, &length, EVP_sha256(), nil)
        return Array(out[0..<Int(length)])
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
