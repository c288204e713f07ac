import Foundation
import QuakeHTTP

/// An object as a HEAD sees it.
struct S3Object: Sendable {
    let size: Int64
    let etag: String
    /// `x-amz-checksum-sha256` (base64), when the store keeps one for the object.
    let checksumSHA256: String?
    let contentType: String?
    let cacheControl: String?
}

/// What an object is stored with: its type and caching, and the checksums of what is sent.
struct ObjectHeaders: Sendable {
    var contentType: String
    var cacheControl: String

    var lines: [(name: String, value: String)] { [("Content-Type", contentType), ("Cache-Control", cacheControl)] }
}

/// The S3 operations publish uses, each one request (`list…` one per page).
extension S3Client {
    /// The object at `key`, or `nil` when there is none.
    func head(_ key: String) async throws -> S3Object? {
        let response = try await perform(Call(operation: "HeadObject", method: "HEAD", key: key, headers: [("x-amz-checksum-mode", "ENABLED")],
                                              answers: [404]))
        guard response.status != 404 else { return nil }
        guard let size = response.header("Content-Length").flatMap(Int64.init) else {
            throw S3Failure.unexpected("HeadObject \(key) without a Content-Length")
        }
        return S3Object(size: size, etag: response.header("ETag")?.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? "",
                        checksumSHA256: response.header("x-amz-checksum-sha256"), contentType: response.header("Content-Type"),
                        cacheControl: response.header("Cache-Control"))
    }

    /// The bytes at `key` (at most `limit`), or `nil` when there is no such object.
    func get(_ key: String, limit: Int) async throws -> Data? {
        let response = try await perform(Call(operation: "GetObject", method: "GET", key: key, destination: .memory(limit: limit), answers: [404]))
        return response.status == 404 ? nil : response.body
    }

    /// Downloads the object at `key` into `file`; false when there is no such object.
    func download(_ key: String, to file: URL) async throws -> Bool {
        let response = try await perform(Call(operation: "GetObject", method: "GET", key: key, destination: .file(file), answers: [404]))
        return response.status != 404
    }

    /// PUTs `body` (whose digests are `digests`) at `key`; the store checks the sha256
    /// (`x-amz-checksum-sha256`, and the signed `x-amz-content-sha256`) and the MD5 (`Content-MD5`).
    func put(_ key: String, body: HTTPRequest.Body, digests: FileDigests, headers: ObjectHeaders,
             progress: (@Sendable (Int64) -> Void)? = nil) async throws -> HTTPResponse {
        try await perform(Call(operation: "PutObject", method: "PUT", key: key,
                               headers: headers.lines + [("Content-MD5", digests.md5Base64), ("x-amz-checksum-sha256", digests.sha256Base64)],
                               body: body, payloadSHA256: digests.sha256Hex, onBodyProgress: progress))
    }

    func delete(_ key: String) async throws {
        _ = try await perform(Call(operation: "DeleteObject", method: "DELETE", key: key, answers: [404]))
    }

    /// Every key under `prefix` (full keys) with its size, page by page (ListObjectsV2).
    func list(prefix: String) async throws -> [(key: String, size: Int64)] {
        var keys: [(key: String, size: Int64)] = []
        var token: String?
        repeat {
            var query: [(name: String, value: String?)] = [("list-type", "2"), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let response = try await perform(Call(operation: "ListObjectsV2", method: "GET", key: nil, query: query))
            guard let xml = S3XML.parse(response.body), xml.name == "ListBucketResult" else {
                throw S3Failure.unexpected("ListObjectsV2 under \(prefix) is not a ListBucketResult")
            }
            for item in xml.all("Contents") {
                guard let key = item.text("Key"), let size = item.text("Size").flatMap(Int64.init) else { continue }
                keys.append((key, size))
            }
            token = xml.text("IsTruncated") == "true" ? xml.text("NextContinuationToken") : nil
        } while token != nil
        return keys
    }

    /// Starts a multipart upload at `key`; its upload id.
    func createMultipartUpload(_ key: String, headers: ObjectHeaders) async throws -> String {
        let response = try await perform(Call(operation: "CreateMultipartUpload", method: "POST", key: key, query: [("uploads", nil)],
                                              headers: headers.lines))
        guard let id = S3XML.parse(response.body)?.text("UploadId"), !id.isEmpty else {
            throw S3Failure.unexpected("CreateMultipartUpload \(key) gave no UploadId")
        }
        return id
    }

    /// Uploads part `number`; its ETag.
    func uploadPart(_ key: String, uploadID: String, number: Int, body: HTTPRequest.Body, digests: FileDigests,
                    progress: (@Sendable (Int64) -> Void)? = nil) async throws -> String {
        let response = try await perform(Call(operation: "UploadPart", method: "PUT", key: key,
                                              query: [("partNumber", String(number)), ("uploadId", uploadID)],
                                              headers: [("Content-MD5", digests.md5Base64)], body: body, payloadSHA256: digests.sha256Hex,
                                              onBodyProgress: progress))
        guard let etag = response.header("ETag") else { throw S3Failure.unexpected("UploadPart \(number) of \(key) gave no ETag") }
        return etag
    }

    /// Makes part `number` a copy of `range` (inclusive byte offsets) of the object at `source`; its ETag.
    func uploadPartCopy(_ key: String, uploadID: String, number: Int, source: String, range: ClosedRange<Int64>) async throws -> String {
        let response = try await perform(Call(operation: "UploadPartCopy", method: "PUT", key: key,
                                              query: [("partNumber", String(number)), ("uploadId", uploadID)],
                                              headers: [("x-amz-copy-source", "/\(target.bucket)/" + SigV4Signer.uriEncode(source, keepSlash: true)),
                                                        ("x-amz-copy-source-range", "bytes=\(range.lowerBound)-\(range.upperBound)")]))
        guard let etag = S3XML.parse(response.body)?.text("ETag") else {
            throw S3Failure.unexpected("UploadPartCopy \(number) of \(key) gave no ETag")
        }
        return etag
    }

    /// Joins the parts (number, ETag) into the object.
    func completeMultipartUpload(_ key: String, uploadID: String, parts: [(Int, String)]) async throws {
        let xml = "<CompleteMultipartUpload>" + parts.map { number, etag in
            "<Part><PartNumber>\(number)</PartNumber><ETag>\(Self.escape(etag))</ETag></Part>"
        }.joined() + "</CompleteMultipartUpload>"
        let body = Data(xml.utf8)
        let digests = FileDigests.of(body)
        _ = try await perform(Call(operation: "CompleteMultipartUpload", method: "POST", key: key, query: [("uploadId", uploadID)],
                                   headers: [("Content-Type", "application/xml"), ("Content-MD5", digests.md5Base64)],
                                   body: .bytes(body), payloadSHA256: digests.sha256Hex))
    }

    func abortMultipartUpload(_ key: String, uploadID: String) async throws {
        _ = try await perform(Call(operation: "AbortMultipartUpload", method: "DELETE", key: key, query: [("uploadId", uploadID)],
                                   answers: [404]))
    }

    /// The multipart uploads begun and not finished under `prefix` (key, upload id).
    func listMultipartUploads(prefix: String) async throws -> [(key: String, uploadID: String)] {
        var uploads: [(key: String, uploadID: String)] = []
        var markers: (String, String)?
        repeat {
            var query: [(name: String, value: String?)] = [("uploads", nil), ("prefix", prefix)]
            if let (key, id) = markers { query += [("key-marker", key), ("upload-id-marker", id)] }
            let response = try await perform(Call(operation: "ListMultipartUploads", method: "GET", key: nil, query: query))
            guard let xml = S3XML.parse(response.body), xml.name == "ListMultipartUploadsResult" else {
                throw S3Failure.unexpected("ListMultipartUploads under \(prefix) is not a ListMultipartUploadsResult")
            }
            for upload in xml.all("Upload") {
                if let key = upload.text("Key"), let id = upload.text("UploadId") { uploads.append((key, id)) }
            }
            let next = (xml.text("NextKeyMarker") ?? "", xml.text("NextUploadIdMarker") ?? "")
            markers = xml.text("IsTruncated") == "true" && !next.0.isEmpty && (markers.map { $0 != next } ?? true) ? next : nil
        } while markers != nil
        return uploads
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
