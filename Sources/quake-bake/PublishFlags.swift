import ArgumentParser
import Foundation
import QuakeCommon
import QuakePublish

/// Where and how `publish` writes: a flag for each `PublishOption` (the target, the store, the
/// credentials, what to keep), named and explained by its declaration.
/// Only the flags given change anything, so `--config` can supply the rest.
struct PublishFlags: DeclaredFlags {
    @Option(PublishOption.to) var to: String?
    @Option(PublishOption.endpoint) var endpoint: String?
    @Option(PublishOption.region) var region: String?
    @Option(PublishOption.keep) var keep: String?
    @Option(PublishOption.publicURL) var publicURL: String?
    @Option(PublishOption.credentialsFile) var credentialsFile: String?
    @Option(PublishOption.profile) var profile: String?
    @Option(PublishOption.maxAttempts) var maxAttempts: String?
    @Option(PublishOption.giveUpAfter) var giveUpAfter: String?

    func apply(to options: inout PublishOptions) throws {
        try PublishOption.apply([
            (.to, to), (.endpoint, endpoint), (.region, region), (.keep, keep), (.publicURL, publicURL),
            (.credentialsFile, credentialsFile), (.profile, profile), (.maxAttempts, maxAttempts), (.giveUpAfter, giveUpAfter),
        ], to: &options)
    }

    /// The options: `base` (from a configuration file) with these flags over it, checked.
    func options(over base: PublishOptions?) throws -> PublishOptions {
        guard var options = base ?? to.map({ _ in PublishOptions() }) else {
            throw QuakeBakeError("--to s3://BUCKET/PREFIX is required (or a configuration with a publish: section).", exitStatus: .usage)
        }
        try apply(to: &options)
        _ = try options.target()
        return options
    }
}
