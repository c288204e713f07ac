import Foundation
import QuakeCommon

/// What the store said no to, or why it could not be reached: exit 1 with what to check
/// (nothing was changed by the refused request), or 75 when it may work later.
public struct S3Failure: ExitStatusProviding, CustomStringConvertible, Sendable {
    /// The store's error code (`AccessDenied`, `SignatureDoesNotMatch`, …), or the HTTP
    /// status in words when the answer had no body (a HEAD), or `unavailable`.
    public let code: String
    public let description: String
    public let exitStatus: ExitStatus
    /// Unavailable when it may work later, else refused.
    public var kind: QuakeBakeError.Kind { exitStatus == .temporaryFailure ? .unavailable : .refused }

    /// A refusal: `operation` on `target` answered `status` with `code` and `message`.
    static func refused(_ operation: String, key: String?, target: S3Target, status: Int, code: String, message: String,
                        credentials: S3Credentials) -> S3Failure {
        let what = "\(operation) \(key.map { "s3://\(target.bucket)/\($0)" } ?? target.description)"
        let said = message.isEmpty ? "" : ": \(message)"
        let check: String
        switch code {
        case "InvalidAccessKeyId":
            check = "the store does not know \(credentials); check AWS_ACCESS_KEY_ID or the credentials file"
        case "SignatureDoesNotMatch":
            check = "the secret key does not match \(credentials); check AWS_SECRET_ACCESS_KEY or the credentials file (and --region)"
        case "AccessDenied", "Forbidden":
            check = "\(credentials) may not do this; check the bucket policy and the key's permissions (s3:GetObject, s3:PutObject, "
                + "s3:DeleteObject, s3:ListBucket, s3:ListBucketMultipartUploads, s3:AbortMultipartUpload on \(target))"
        case "NoSuchBucket":
            check = "there is no bucket \"\(target.bucket)\"\(target.endpoint.map { " at \($0.absoluteString)" } ?? "") ; create it or check --to"
        case "AuthorizationHeaderMalformed", "PermanentRedirect", "IllegalLocationConstraintException":
            check = "the bucket is not in region \(target.region); check --region"
        case "ExpiredToken", "InvalidToken", "TokenRefreshRequired":
            check = "the session token (AWS_SESSION_TOKEN or the credentials file) is expired or wrong"
        case "RequestTimeTooSkewed":
            check = "this machine's clock is too far from the store's; set the clock (NTP)"
        default:
            check = "the store refused it"
        }
        return S3Failure(code: code, description: "the store refused \(what) (status \(status), \(code)\(said)): \(check)", exitStatus: .failure)
    }

    /// The store did not answer usably after every attempt (5xx, SlowDown, timeouts, refused connections).
    static func unavailable(_ operation: String, key: String?, target: S3Target, attempts: Int, lastProblem: String) -> S3Failure {
        let what = "\(operation) \(key.map { "s3://\(target.bucket)/\($0)" } ?? target.description)"
        return S3Failure(code: "unavailable", description: "the store did not answer \(what) after \(attempts) attempt\(attempts == 1 ? "" : "s"); "
                         + "last problem: \(lastProblem); the next publish resumes", exitStatus: .temporaryFailure)
    }

    /// A store that answers what it should not: a missing field, a size that is not the one sent.
    static func unexpected(_ what: String) -> S3Failure {
        S3Failure(code: "unexpected", description: "the store answered unexpectedly: \(what)", exitStatus: .failure)
    }
}
