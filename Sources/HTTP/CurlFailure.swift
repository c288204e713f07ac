import CCurl
import Foundation

/// Curl's result codes in the words of `TransferFailure`.
enum CurlFailure {
    /// The codes of a TLS handshake or certificate check that failed.
    private static let tlsCodes: Set<UInt32> = [
        CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
        CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
        CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
        CURLE_USE_SSL_FAILED,
    ].map(\.rawValue).reduce(into: []) { $0.insert($1) }

    /// Why a transfer ended with `code`; `detail` is curl's error buffer.
    static func classify(_ code: CURLcode, detail: String, headersDone: Bool) -> TransferFailure {
        let words = String(cString: curl_easy_strerror(code)) + (detail.isEmpty ? "" : ": \(detail)")
        if tlsCodes.contains(code.rawValue) { return .tls("\(words), curl code \(code.rawValue)") }
        // Curl refuses one header line over its own limit (100 KB) as "out of memory".
        if code == CURLE_OUT_OF_MEMORY && !headersDone { return .headersTooLong("a line longer than libcurl takes; \(words)") }
        return .broken("\(words) (curl code \(code.rawValue))")
    }
}
