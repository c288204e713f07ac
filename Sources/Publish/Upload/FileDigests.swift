import CCrypto
import Foundation
import QuakeCommon

/// The sha256 and MD5 of a file region, read once, 1 MB at a time: what an upload's
/// `x-amz-content-sha256`, `x-amz-checksum-sha256` and `Content-MD5` say of its body.
struct FileDigests: Sendable {
    let sha256: [UInt8]
    let md5: [UInt8]

    var sha256Hex: String { sha256.map { String(format: "%02x", $0) }.joined() }
    var sha256Base64: String { Data(sha256).base64EncodedString() }
    var md5Base64: String { Data(md5).base64EncodedString() }
    var md5Hex: String { md5.map { String(format: "%02x", $0) }.joined() }

    /// The digests of `length` bytes of the file at `url` from `offset`.
    static func of(_ url: URL, offset: Int64 = 0, length: Int64) throws -> FileDigests {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw QuakeBakeError("cannot read \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let sha = EVP_MD_CTX_new()!, md5 = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(sha); EVP_MD_CTX_free(md5) }
        EVP_DigestInit_ex(sha, EVP_sha256(), nil)
        EVP_DigestInit_ex(md5, EVP_md5(), nil)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        var done: Int64 = 0
        while done < length {
            let got = pread(fd, buffer, Int(min(1 << 20, length - done)), off_t(offset + done))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                throw QuakeBakeError("cannot read \(url.path) at byte \(offset + done): " + (got == 0 ? "it ended early" : String(cString: strerror(errno))))
            }
            EVP_DigestUpdate(sha, buffer, got)
            EVP_DigestUpdate(md5, buffer, got)
            done += Int64(got)
        }
        return FileDigests(sha256: finish(sha), md5: finish(md5))
    }

    /// The digests of `data`.
    static func of(_ data: Data) -> FileDigests {
        func digest(_ type: OpaquePointer?) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            data.withUnsafeBytes { _ = EVP_Digest($0.baseAddress, $0.count, &out, &length, type, nil) }
            return Array(out[0..<Int(length)])
        }
        return FileDigests(sha256: digest(EVP_sha256()), md5: digest(EVP_md5()))
    }

    private static func finish(_ context: OpaquePointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &out, &length)
        return Array(out[0..<Int(length)])
    }
}
