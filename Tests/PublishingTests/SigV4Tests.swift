import Foundation
import Logging
import QuakeHTTP
@testable import QuakePublish
import Testing
import TestSupport

/// The hand-written signer (SigV4Signer) against AWS's published test vectors, and every kind
/// of request publish sends, as S3Client builds it, against botocore signing the same.
@Suite struct SigV4Tests {
    /// The signature v4 test suite's credentials, scope and time (2015-08-30T12:36:00Z, service "service").
    static let suite = SigV4Signer(credentials: S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                                                              source: "the test suite"), region: "us-east-1", service: "service")
    static let suiteDate = Date(timeIntervalSince1970: 1_440_938_160)
    static let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    struct Vector: Sendable, CustomStringConvertible {
        var name: String
        var method = "GET"
        var path = "/"
        var query: [(name: String, value: String?)] = []
        var headers: [(name: String, value: String)] = []
        var body = ""
        var signedHeaders: String
        var signature: String
        var description: String { name }
    }

    /// From aws-sig-v4-test-suite: the request, and the signed headers and signature AWS publishes.
    static let vectors: [Vector] = [
        Vector(name: "get-vanilla", signedHeaders: "host;x-amz-date", signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        Vector(name: "get-unreserved", path: "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", signedHeaders: "host;x-amz-date",
               signature: "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"),
        Vector(name: "get-vanilla-query-order-key-case", query: [("Param2", "value2"), ("Param1", "value1")], signedHeaders: "host;x-amz-date",
               signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
        Vector(name: "get-vanilla-query-order-value", query: [("Param1", "value2"), ("Param1", "value1")], signedHeaders: "host;x-amz-date",
               signature: "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694"),
        Vector(name: "get-vanilla-utf8-query", query: [("\u{1234}", "bar")], signedHeaders: "host;x-amz-date",
               signature: "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"),
        Vector(name: "get-header-value-order", headers: [("My-Header1", "value4"), ("My-Header1", "value1"), ("My-Header1", "value3"), ("My-Header1", "value2")],
               signedHeaders: "host;my-header1;x-amz-date", signature: "08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01"),
        Vector(name: "get-header-key-duplicate", headers: [("My-Header1", "value2"), ("My-Header1", "value2"), ("My-Header1", "value1")],
               signedHeaders: "host;my-header1;x-amz-date", signature: "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"),
        Vector(name: "get-header-value-trim", headers: [("My-Header1", " value1"), ("My-Header2", "\"a   b   c\"")],
               signedHeaders: "host;my-header1;my-header2;x-amz-date", signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
        Vector(name: "post-x-www-form-urlencoded", method: "POST", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "Param1=value1",
               signedHeaders: "content-type;host;x-amz-date", signature: "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"),
    ]

    @Test(arguments: vectors)
    func theSignerSignsThePublishedVectors(_ v: Vector) {
        let request = SigV4Signer.Request(method: v.method, encodedPath: v.path, query: v.query,
                                          headers: [("Host", "example.amazonaws.com")] + v.headers, payloadSHA256: FileDigests.of(Data(v.body.utf8)).sha256Hex)
        let added = Self.suite.sign(request, at: Self.suiteDate)
        #expect(added.first { $0.name == "x-amz-date" }?.value == "20150830T123600Z")
        #expect(added.first { $0.name == "Authorization" }?.value == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=\(v.signedHeaders), Signature=\(v.signature)")
    }

    /// AWS's S3 examples ("Signature Calculations for the Authorization Header: Transferring
    /// Payload in a Single Chunk"): examplebucket, 2013-05-24T00:00:00Z.
    @Test func theSignerSignsTheS3Examples() {
        let signer = SigV4Signer(credentials: S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                                                            source: "the S3 examples"), region: "us-east-1")
        let date = Date(timeIntervalSince1970: 1_369_353_600)
        let host = ("Host", "examplebucket.s3.amazonaws.com")
        let examples: [(SigV4Signer.Request, String, String)] = [
            (SigV4Signer.Request(method: "GET", encodedPath: "/test.txt", headers: [host, ("Range", "bytes=0-9"), ("x-amz-content-sha256", Self.emptyHash)],
                                 payloadSHA256: Self.emptyHash),
             "host;range;x-amz-content-sha256;x-amz-date", "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"),
            (SigV4Signer.Request(method: "PUT", encodedPath: "/" + SigV4Signer.uriEncode("test$file.text", keepSlash: true),
                                 headers: [host, ("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY"),
                                           ("x-amz-content-sha256", "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")],
                                 payloadSHA256: FileDigests.of(Data("Welcome to Amazon S3.".utf8)).sha256Hex),
             "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class", "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"),
            (SigV4Signer.Request(method: "GET", encodedPath: "/", query: [("lifecycle", nil)], headers: [host, ("x-amz-content-sha256", Self.emptyHash)],
                                 payloadSHA256: Self.emptyHash),
             "host;x-amz-content-sha256;x-amz-date", "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"),
            (SigV4Signer.Request(method: "GET", encodedPath: "/", query: [("max-keys", "2"), ("prefix", "J")],
                                 headers: [host, ("x-amz-content-sha256", Self.emptyHash)], payloadSHA256: Self.emptyHash),
             "host;x-amz-content-sha256;x-amz-date", "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"),
        ]
        for (request, signed, signature) in examples {
            #expect(signer.sign(request, at: date).last?.value == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                    + "SignedHeaders=\(signed), Signature=\(signature)", "\(request.method) \(request.encodedPath)")
        }
    }

    /// Every kind of request publish makes, with awkward keys and prefixes, path-style and
    /// virtual-hosted, with and without a session token: botocore signs each the same.
    @Test func botocoreSignsEveryRequestAsWeDo() async throws {
        let body = Data("<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>\"e\"</ETag></Part></CompleteMultipartUpload>".utf8)
        let digests = FileDigests.of(body)
        let key = "maps/ünïcode dir/objects/a+b=c&d~e(1)*.geojson.gz"
        let headers = ObjectHeaders(contentType: "application/gzip", cacheControl: "public, max-age=31536000, immutable")
        let calls: [S3Client.Call] = [
            .init(operation: "PutObject", method: "PUT", key: key,
                  headers: headers.lines + [("Content-MD5", digests.md5Base64), ("x-amz-checksum-sha256", digests.sha256Base64)],
                  body: .bytes(body), payloadSHA256: digests.sha256Hex),
            .init(operation: "HeadObject", method: "HEAD", key: key, headers: [("x-amz-checksum-mode", "ENABLED")]),
            .init(operation: "GetObject", method: "GET", key: "maps/current.json"),
            .init(operation: "DeleteObject", method: "DELETE", key: key),
            .init(operation: "ListObjectsV2", method: "GET", key: nil,
                  query: [("list-type", "2"), ("prefix", "maps/ünïcode dir/"), ("continuation-token", "1/a+b=c==")]),
            .init(operation: "CreateMultipartUpload", method: "POST", key: key, query: [("uploads", nil)], headers: headers.lines),
            .init(operation: "UploadPart", method: "PUT", key: key, query: [("partNumber", "2"), ("uploadId", "2~abc/def+g==")],
                  headers: [("Content-MD5", digests.md5Base64)], body: .bytes(body), payloadSHA256: digests.sha256Hex),
            .init(operation: "UploadPartCopy", method: "PUT", key: key, query: [("partNumber", "3"), ("uploadId", "2~abc/def+g==")],
                  headers: [("x-amz-copy-source", "/quakes/" + SigV4Signer.uriEncode(key, keepSlash: true)), ("x-amz-copy-source-range", "bytes=0-5242879")]),
            .init(operation: "CompleteMultipartUpload", method: "POST", key: key, query: [("uploadId", "2~abc/def+g==")],
                  headers: [("Content-Type", "application/xml"), ("Content-MD5", digests.md5Base64)], body: .bytes(body), payloadSHA256: digests.sha256Hex),
            .init(operation: "ListMultipartUploads", method: "GET", key: nil, query: [("uploads", nil), ("prefix", "maps/objects/"), ("key-marker", "maps/a b")]),
        ]
        let targets = [try S3Target("s3://quakes/maps", endpoint: "http://127.0.0.1:8333/store", region: "eu-west-1"),
                       try S3Target("s3://quakes/maps", endpoint: nil, region: "us-east-1"),
                       try S3Target("s3://my.dotted.bucket/maps", endpoint: nil, region: "ap-southeast-2")]
        let credentials = [S3Credentials(accessKeyID: "AKIDCROSSCHECK", secretAccessKey: "cross/Check+Secret", source: "test"),
                           S3Credentials(accessKeyID: "ASIACROSSCHECK", secretAccessKey: "cross/Check+Secret", sessionToken: "token/with+and=", source: "test")]
        let date = Date(timeIntervalSince1970: 1_764_374_400)
        var cases: [[String: Any]] = [], ours: [String] = [], labels: [String] = []
        for target in targets {
            for credential in credentials {
                let client = S3Client(target: target, credentials: credential, timeouts: HTTPTimeouts(connect: 1, read: 1, deadline: 1),
                                      retry: RetryPolicy(maxAttempts: 1, baseDelay: 1, maxDelay: 1, maxRetryAfter: 1, giveUpAfter: 1),
                                      logger: Logger(label: "test"))
                defer { client.close() }
                for call in calls {
                    let request = client.request(for: call, at: date)
                    ours.append(try #require(request.headers.first { $0.name == "Authorization" }?.value))
                    labels.append("\(call.operation) \(request.url.absoluteString)")
                    let signed = request.headers.filter { !["Authorization", "x-amz-date", "x-amz-security-token"].contains($0.name) }
                    cases.append(["method": request.method, "url": request.url.absoluteString,
                                  "headers": ([("host", target.host)] + signed).map { [$0.0, $0.1] },
                                  "access_key": credential.accessKeyID, "secret_key": credential.secretAccessKey,
                                  "token": credential.sessionToken as Any, "region": target.region, "amz_date": "20251129T000000Z"])
                }
            }
        }
        let directory = TemporaryDirectory("sigv4")
        let file = directory.path("cases.json")
        try JSONSerialization.data(withJSONObject: cases).write(to: file)
        let botocore = try JSONDecoder().decode([String].self, from: await WitnessScript.run("sigv4_witness.py", [file.path]))
        #expect(botocore.count == ours.count)
        for (label, (theirs, mine)) in zip(labels, zip(botocore, ours)) {
            #expect(theirs == mine, "\(label)")
        }
    }
}
