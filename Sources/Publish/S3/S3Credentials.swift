import Foundation
import QuakeCommon

/// The keys requests are signed with: from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and
/// `AWS_SESSION_TOKEN`, else from a credentials file in AWS's INI format (a profile's
/// `aws_access_key_id`, `aws_secret_access_key`, `aws_session_token`).
///
/// The secret and the token never leave this value but into a signature: its description
/// names only where the keys came from and the access key's last four characters.
public struct S3Credentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public let accessKeyID: String
    let secretAccessKey: String
    let sessionToken: String?
    /// Where they came from, for messages: `AWS_ACCESS_KEY_ID`, `/etc/quake-bake/credentials [default]`.
    public let source: String

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, source: String) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.source = source
    }

    public var description: String { "the access key …\(accessKeyID.suffix(4)) from \(source)" }
    public var debugDescription: String { description }

    /// The biggest credentials file read.
    static let maximumFileBytes = 1 << 20

    /// The credentials for a publish: the environment's when it has an access key, else the
    /// `file`'s (else `AWS_SHARED_CREDENTIALS_FILE`'s, else `~/.aws/credentials` when it
    /// exists), profile `profile` (else `AWS_PROFILE`, else `default`).
    public static func resolve(file: URL?, profile: String?,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws -> S3Credentials {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let key = value("AWS_ACCESS_KEY_ID") {
            guard let secret = value("AWS_SECRET_ACCESS_KEY") else {
                throw QuakeBakeError("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not: set both, or neither to use a credentials file")
            }
            return S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN"), source: "AWS_ACCESS_KEY_ID")
        }
        let home = value("HOME").map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        let defaultFile = home.appendingPathComponent(".aws/credentials")
        let path = file ?? value("AWS_SHARED_CREDENTIALS_FILE").map { URL(fileURLWithPath: $0) }
            ?? (FileManager.default.fileExists(atPath: defaultFile.path) ? defaultFile : nil)
        guard let path else {
            throw QuakeBakeError("no credentials for the store: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
                                 + "or name a credentials file (publish: credentials_file: in the configuration)")
        }
        let profile = profile ?? value("AWS_PROFILE") ?? "default"
        return try fromFile(path, profile: profile)
    }

    /// The keys of `profile` in the INI file at `url`.
    static func fromFile(_ url: URL, profile: String) throws -> S3Credentials {
        let text: String
        do {
            text = String(decoding: try InputFile.bytes(of: url, maxBytes: maximumFileBytes, for: .credentials), as: UTF8.self)
        } catch {
            throw QuakeBakeError("cannot read the credentials file \(url.path): \(error.description)")
        }
        var section = "", values: [String: String] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                if section.hasPrefix("profile ") { section = String(section.dropFirst(8)).trimmingCharacters(in: .whitespaces) }
                continue
            }
            guard section == profile, let equals = line.firstIndex(of: "=") else { continue }
            values[line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()] = line[line.index(after: equals)...]
                .trimmingCharacters(in: .whitespaces)
        }
        let source = "\(url.path) [\(profile)]"
        guard let key = values["aws_access_key_id"], !key.isEmpty, let secret = values["aws_secret_access_key"], !secret.isEmpty else {
            throw QuakeBakeError("the credentials file \(url.path) has no profile [\(profile)] with aws_access_key_id and aws_secret_access_key")
        }
        return S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: values["aws_session_token"].flatMap { $0.isEmpty ? nil : $0 },
                             source: source)
    }
}
