import Foundation
import QuakeCommon

/// What a stage of an export makes, for the stages after it.
enum ExportProduct: String, CaseIterable, Sendable {
    /// The copies of the previous version's app database and MBTiles (`PreviousCopies?`).
    case copies
    /// The previous version's files that are sound, the ones its manifest lists (`Set<String>`).
    case sound
    /// The selection read from the store, its details and the bundle version (`ExportRead`).
    case read
    /// The new version's directory and what of the previous version it builds on (`VersionPlan`).
    case version
    /// The older versions deltas are made from (`[DeltaWriter.Base]`).
    case deltaBases
    /// The events' feature ids (`FeatureIDs`).
    case featureIDs
    /// The ordered points and the feature ids (`OrderedPoints`).
    case points
    /// The app database's digest and the rows deltas that failed (`AppDatabaseDone`).
    case appDatabase
    /// The thinned events and their tiles (`BundleBuilder.Thinned`).
    case thinned
    /// Each event's minzoom and the events whose feature id moved, for the event cache (`BundleBuilder.CacheUpdate`).
    case minZooms
    /// The event cache, written beside the new version (`Void`).
    case eventCache
    /// Every file of the version but the app database and the manifest (`BundleBuilder.Built`).
    case archives
}

/// One stage of an export: its name, the products it needs (made by the stages before it), and
/// its body, which makes the products it declares. A stage `beside` runs on a thread of its own;
/// it may also await products of stages declared after it, which run meanwhile. A stage that
/// `releases` products lets them go once it is done and a stage beside that needs them has taken
/// them (their memory, and the temporary files they hold); no stage after it may need them.
struct ExportStage {
    /// What the export does after a stage.
    enum Next {
        /// Goes on with the next stage.
        case next
        /// Ends: the export is done (published, or nothing changed).
        case finished(ExportSummary)
    }

    let name: String
    let needs: [ExportProduct]
    let awaits: [ExportProduct]
    let produces: [ExportProduct]
    let releases: [ExportProduct]
    let beside: Bool
    let body: (Context) throws -> Next

    init(_ name: String, needs: [ExportProduct] = [], awaits: [ExportProduct] = [], produces: [ExportProduct] = [],
         releases: [ExportProduct] = [], beside: Bool = false, body: @escaping (Context) throws -> Next) {
        self.name = name
        self.needs = needs
        self.awaits = awaits
        self.produces = produces
        self.releases = releases
        self.beside = beside
        self.body = body
    }

    /// What a stage's body sees: the run, and of its products only those the stage declares.
    struct Context: @unchecked Sendable {
        let run: ExportRun
        let stage: ExportStage
        let plan: ExportPlan

        /// A product the stage needs, waited for when a stage beside is still making it.
        func need<T>(_ product: ExportProduct) throws -> T {
            precondition(stage.needs.contains(product), "stage \(stage.name) did not declare that it needs \(product.rawValue)")
            return try run.products.value(product, takenBy: stage.name)
        }

        /// Waits until a product the stage awaits is made (or its stage failed).
        func await(_ product: ExportProduct) {
            precondition(stage.awaits.contains(product), "stage \(stage.name) did not declare that it awaits \(product.rawValue)")
            run.products.wait(for: product)
        }

        /// A product the stage needs when the plan has a stage that makes it, else `absent`.
        func need<T>(_ product: ExportProduct, absent: T) throws -> T {
            plan.makes(product) ? try need(product) : absent
        }

        /// Hands a product of the stage to the stages after it.
        func make(_ product: ExportProduct, _ value: Any) {
            precondition(stage.produces.contains(product), "stage \(stage.name) did not declare that it makes \(product.rawValue)")
            run.products.put(product, value)
        }

        /// Throws unless the stage made every product it declares.
        func checkMade() throws {
            if let missing = stage.produces.first(where: { !run.products.has($0) }) {
                throw QuakeBakeError("export plan: stage \(stage.name) did not make \(missing.rawValue)")
            }
        }
    }
}

/// The products of an export's stages so far; a product asked for before it is made is waited for.
/// A released product is let go once every stage that needs it has taken it: a stage running
/// beside may take it after the stage that releases it is done.
final class ExportProducts: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [ExportProduct: Any] = [:]
    private var made = Set<ExportProduct>()
    private var failures: [ExportProduct: any Error] = [:]
    /// The stages that need each product and have not taken it yet.
    private var takers: [ExportProduct: Set<String>] = [:]
    private var released = Set<ExportProduct>()

    /// The stages that will take the products: what they need is kept until they have.
    func expect(_ stages: [ExportStage]) {
        condition.lock()
        for stage in stages { for product in stage.needs { takers[product, default: []].insert(stage.name) } }
        condition.unlock()
    }

    func put(_ product: ExportProduct, _ value: Any) {
        condition.lock()
        values[product] = value
        made.insert(product)
        condition.broadcast()
        condition.unlock()
    }

    /// Makes each of `products` not made yet fail with `error`.
    func fail(_ products: [ExportProduct], _ error: any Error) {
        condition.lock()
        for product in products where !made.contains(product) && failures[product] == nil { failures[product] = error }
        condition.broadcast()
        condition.unlock()
    }

    func has(_ product: ExportProduct) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return made.contains(product)
    }

    /// Lets products go, each once every stage that needs it has taken it.
    func release(_ products: [ExportProduct]) {
        condition.lock()
        released.formUnion(products)
        for product in products { dropIfDone(product) }
        condition.unlock()
    }

    /// Drops a released product that no stage is still to take (called with the lock held).
    private func dropIfDone(_ product: ExportProduct) {
        if released.contains(product) && takers[product, default: []].isEmpty { values[product] = nil }
    }

    /// Waits until the product is made or failed.
    func wait(for product: ExportProduct) {
        condition.lock()
        while !made.contains(product) && failures[product] == nil { condition.wait() }
        condition.unlock()
    }

    /// The product, once made, taken by the stage `taker` (`nil`: only looked at); rethrows the
    /// error of the stage that failed to make it.
    func value<T>(_ product: ExportProduct, takenBy taker: String? = nil) throws -> T {
        condition.lock()
        defer { condition.unlock() }
        while !made.contains(product) && failures[product] == nil { condition.wait() }
        if let failure = failures[product] { throw failure }
        guard let value = values[product] else { preconditionFailure("\(product.rawValue) was released before it was needed") }
        if let taker {
            takers[product]?.remove(taker)
            dropIfDone(product)
        }
        return value as! T
    }
}
