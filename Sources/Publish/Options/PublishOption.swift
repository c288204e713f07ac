import Foundation
import QuakeCommon

/// One option of where and how `publish` writes (`--keep`; `publish: keep:`), declared once in
/// `PublishOption.all`: `publish`'s flags and the configuration's `publish:` section are made
/// from the declarations, the defaults are `PublishOptions()`'s.
public typealias PublishOption = OptionDeclaration<PublishOptions>

extension OptionDeclaration where Options == PublishOptions {
    /// Every option of publishing, in the order `--help` lists them.
    public static let all: [PublishOption] = [to, endpoint, region, keep, publicURL, credentialsFile, profile, maxAttempts, giveUpAfter]

    public static let to = PublishOption(
        flag: "to", key: "to", at: \.to, valueName: "s3-url", summary: "Where to publish: s3://BUCKET/PREFIX.", parse: { $0 }, text: nil)

    public static let endpoint = text(
        "endpoint", key: "endpoint", at: \.endpoint, valueName: "url",
        "An S3-compatible store's URL (SeaweedFS, MinIO, Ceph…); implies path-style addressing. Default: AWS.")

    public static let region = text(
        "region", key: "region", at: \.region, valueName: "region", "The bucket's region (default $AWS_REGION, else $AWS_DEFAULT_REGION, else us-east-1).")

    public static let keep = wholeNumber(
        "keep", key: "keep", at: \.keep, in: PublishOptions.keepRange,
        "Published versions whose objects stay in the store (default {default}); older ones are pruned once the pointer has moved.")

    public static let publicURL = PublishOption(
        flag: "public-url", key: "public_url", at: \.publicURL, valueName: "url",
        summary: "The URL web clients read the prefix from (a CDN): the published style.json then names the published PMTiles by it.",
        parse: { text in
            guard let url = URL(string: text) else { throw OptionText.problem("\"\(text.prefix(200))\" is not a URL") }
            return url
        },
        check: { url in
            url.flatMap { ["http", "https"].contains($0.scheme ?? "") && $0.host != nil && $0.query == nil ? nil : "\"\($0.absoluteString)\" is not an http(s) URL" }
        }, text: nil)

    public static let credentialsFile = PublishOption(
        flag: "credentials-file", key: "credentials_file", at: \.credentialsFile, form: .file, valueName: "file",
        summary: "An AWS credentials file (INI), read when AWS_ACCESS_KEY_ID is not set (default ~/.aws/credentials).",
        parse: { URL(fileURLWithPath: $0) }, text: nil)

    public static let profile = text(
        "profile", key: "profile", at: \.profile, valueName: "name", "The profile of the credentials file (default $AWS_PROFILE, else default).")

    public static let maxAttempts = wholeNumber(
        "max-attempts", key: "max_attempts", at: \.maxAttempts, in: 1...100, "Attempts per request before the store counts as unavailable, exit 75")

    public static let giveUpAfter = seconds("give-up-after", key: "give_up_after", at: \.giveUpAfter, in: 1...86_400, "Seconds one request keeps trying")
}
