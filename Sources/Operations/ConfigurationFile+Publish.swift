import Foundation
import QuakeCommon
import QuakePublish

extension ConfigurationFile {
    /// Reads the `publish:` section: `to` (required), `endpoint`, `region`, `keep`,
    /// `public_url`, `credentials_file` (relative to the configuration file), `profile`,
    /// `max_attempts`, `give_up_after`.
    static func readPublish(_ s: inout Section, beside directory: URL) throws -> PublishOptions {
        guard let to = try s.string("to") else { throw Section.error(s.path, "needs to: s3://BUCKET/PREFIX") }
        var options = PublishOptions(to: to)
        options.endpoint = try s.string("endpoint")
        options.region = try s.string("region")
        options.keep = try s.int("keep", in: PublishOptions.keepRange) ?? options.keep
        if let url = try s.string("public_url") {
            guard let parsed = URL(string: url) else { throw Section.error(s.path, "public_url: \"\(url)\" is not a URL") }
            options.publicURL = parsed
        }
        options.credentialsFile = try s.string("credentials_file").map { URL(fileURLWithPath: path($0, beside: directory)) }
        options.profile = try s.string("profile")
        options.maxAttempts = try s.int("max_attempts", in: 1...100) ?? options.maxAttempts
        options.giveUpAfter = try s.duration("give_up_after", in: 1...86_400) ?? options.giveUpAfter
        do {
            _ = try options.target()
        } catch let error as QuakeBakeError {
            throw QuakeBakeError("\(s.path): \(error.description)", exitStatus: .usage)
        }
        return options
    }
}
