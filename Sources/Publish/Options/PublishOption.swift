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

    public static let endpoint = PublishOption(
        flag: "endpoint", key: "endpoint", at: \.endpoint, valueName: "url",
        summary: "An S3-compatible store's URL (SeaweedFS, MinIO, Ceph…); implies path-style addressing. Default: AWS.", parse: { $0 }, text: nil)

    public static let region = PublishOption(
        flag: "region", key: "region", at: \.region, valueName: "region",
        summary: "The bucket's region (default $AWS_REGION, else $AWS_DEFAULT_REGION, else us-east-1).", parse: { $0 }, text: nil)

    public static let keep = PublishOption(
        flag: "keep", key: "keep", at: \.keep, valueName: "n",
        summary: "Published versions whose objects stay in the store (default {default}); older ones are pruned once the pointer has moved.",
        parse: OptionText.wholeNumber, check: { OptionText.within(PublishOptions.keepRange, $0) }, text: String.init)

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

    public static let profile = PublishOption(
        flag: "profile", key: "profile", at: \.profile, valueName: "name",
        summary: "The profile of the credentials file (default $AWS_PROFILE, else default).", parse: { $0 }, text: nil)

    public static let maxAttempts = PublishOption(
        flag: "max-attempts", key: "max_attempts", at: \.maxAttempts, valueName: "n",
        summary: "Attempts per request before the store counts as unavailable, exit 75",
        parse: OptionText.wholeNumber, check: { OptionText.within(1...100, $0) }, text: String.init)

    public static let giveUpAfter = PublishOption(
        flag: "give-up-after", key: "give_up_after", at: \.giveUpAfter, valueName: "s", summary: "Seconds one request keeps trying",
        parse: OptionText.seconds, check: { OptionText.within(1...86_400, $0, unit: "seconds") }, text: Format.number)
}
