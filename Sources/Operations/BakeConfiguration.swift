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
    /// The workspace, where bundle versions go (`export: out`) and how many rejects a run puts up with.
    public var run = RunOptions()
    /// Where to publish the bundle after each export (`publish:`); `nil`: not published.
    public var publish: PublishOptions?

    public init() {}
}
