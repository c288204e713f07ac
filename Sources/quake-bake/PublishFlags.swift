import ArgumentParser
import Foundation
import QuakeCommon
import QuakePublish

/// Where and how `publish` writes: the target, the store, the credentials, what to keep.
/// Only the flags given change anything, so `--config` can supply the rest.
struct PublishFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Where to publish: s3://BUCKET/PREFIX.", valueName: "s3-url"))
    var to: String?

    @Option(help: ArgumentHelp("An S3-compatible store's URL (SeaweedFS, MinIO, Ceph…); implies path-style addressing. Default: AWS.",
                               valueName: "url"))
    var endpoint: String?

    @Option(help: ArgumentHelp("The bucket's region (default $AWS_REGION, else $AWS_DEFAULT_REGION, else us-east-1).", valueName: "region"))
    var region: String?

    @Option(help: ArgumentHelp("Published versions whose objects stay in the store (default 3); older ones are pruned once the pointer has moved.",
                               valueName: "n"))
    var keep: Int?

    @Option(help: ArgumentHelp("The URL web clients read the prefix from (a CDN): the published style.json then names the published PMTiles by it.",
                               valueName: "url"))
    var publicURL: String?

    @Option(help: ArgumentHelp("An AWS credentials file (INI), read when AWS_ACCESS_KEY_ID is not set (default ~/.aws/credentials).",
                               valueName: "file"))
    var credentialsFile: String?

    @Option(help: ArgumentHelp("The profile of the credentials file (default $AWS_PROFILE, else default).", valueName: "name"))
    var profile: String?

    @Option(help: ArgumentHelp("Attempts per request before the store counts as unavailable, exit 75 (default 6).", valueName: "n"))
    var maxAttempts: Int?

    @Option(help: ArgumentHelp("Seconds one request keeps trying (default 300).", valueName: "s"))
    var giveUpAfter: Double?

    func validate() throws {
        if let keep, !PublishOptions.keepRange.contains(keep) {
            throw ValidationError("--keep must be in \(PublishOptions.keepRange.lowerBound)…\(PublishOptions.keepRange.upperBound), not \(keep).")
        }
        if let maxAttempts, !(1...100).contains(maxAttempts) { throw ValidationError("--max-attempts must be in 1…100, not \(maxAttempts).") }
        if let giveUpAfter, !(1...86_400).contains(giveUpAfter) { throw ValidationError("--give-up-after must be in 1…86400 seconds.") }
    }

    /// The options: `base` (from a configuration file) with these flags over it.
    func options(over base: PublishOptions?) throws -> PublishOptions {
        guard var options = base ?? to.map(PublishOptions.init(to:)) else {
            throw ValidationError("--to s3://BUCKET/PREFIX is required (or a configuration with a publish: section).")
        }
        if let to { options.to = to }
        if let endpoint { options.endpoint = endpoint }
        if let region { options.region = region }
        if let keep { options.keep = keep }
        if let publicURL {
            guard let url = URL(string: publicURL) else { throw ValidationError("--public-url \"\(publicURL)\" is not a URL.") }
            options.publicURL = url
        }
        if let credentialsFile { options.credentialsFile = URL(fileURLWithPath: credentialsFile) }
        if let profile { options.profile = profile }
        if let maxAttempts { options.maxAttempts = maxAttempts }
        if let giveUpAfter { options.giveUpAfter = giveUpAfter }
        do {
            _ = try options.target()
        } catch let error as QuakeBakeError {
            throw ValidationError(error.description)
        }
        return options
    }
}
