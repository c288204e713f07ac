import Foundation
import QuakeBundles
import QuakeFetch
import QuakePublish

/// Everything one `bake` needs: what to fetch and how, how to export, where to publish.
public struct BakeConfiguration: Sendable {
    /// The FDSN selection; the same selection every run, so runs after the first are incremental.
    public var selection = FetchSelection()
    /// How to talk to the service.
    public var fetch = FetchOptions()
    /// How to thin and what to write.
    public var export = ExportOptions()
    /// Where bundle versions go; `nil`: `<workspace>/bundles`.
    public var out: URL?
    /// More rejected events than this in one run ends it with exit status 65 (after exporting the good ones).
    public var maxRejects = 100
    /// Where to publish the bundle after each export (`publish:`); `nil`: not published.
    public var publish: PublishOptions?
    /// The workspace named by a configuration file, if any (the command line wins).
    public var workspace: String?

    public init() {}
}
