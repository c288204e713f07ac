import CCrypto
import Foundation

/// SHA-256 digests through the system libcrypto (OpenSSL).
public enum SHA256 {
    /// The lowercase hex SHA-256 of `data`.
    public static func hex(_ data: Data) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        data.withUnsafeBytes { bytes in
            _ = EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, EVP_sha256(), nil)
        }
        return digest[0..<Int(length)].map { String(format: "%02x", $0) }.joined()
    }

    /// The lowercase hex SHA-256 of the file at `url`, read 1 MB at a time into one buffer.
    public static func hex(fileAt url: URL) throws -> String {
        guard let context = EVP_MD_CTX_new() else { throw CocoaError(.fileReadUnknown) }
        defer { EVP_MD_CTX_free(context) }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw QuakeBakeError("cannot read \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do {
                count = try SystemIO.read(fd, into: buffer, count: 1 << 20)
            } catch {
                throw QuakeBakeError("cannot read \(url.path): \(error)")
            }
            if count == 0 { break }
            EVP_DigestUpdate(context, buffer, count)
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest[0..<Int(length)].map { String(format: "%02x", $0) }.joined()
    }
}
