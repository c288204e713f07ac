import Foundation

/// Keeps a local copy of a published quake-bake bundle current (docs/publishing.md;
/// docs/bundlekit.md).
///
/// ```swift
/// let client = BundleClient(source: URL(string: "https://cdn.example.com/quakes/")!,
///                           directory: appSupport.appendingPathComponent("quakes"))
/// let update = try await client.update()     // at launch, then now and then
/// let bundle = try client.open()             // the held version, for the map and its queries
/// let top = try bundle.quakes(in: MapRect(west: 120, south: 20, east: 150, north: 50), limit: 100)
/// ```
///
/// ``update()`` reads the publication's `current.json` and decides: the held version is current
/// already; or it brings the held `quakes.sqlite` and `quakes.mbtiles` up by the pointer's
/// deltas from it (applied to copies, each file in one transaction); or it downloads the
/// version whole (no delta from the held version, nothing held, or a delta that failed any
/// check). Files that are the same objects as the held version's are not downloaded again.
/// Every download is checked (size and sha256, and once decoded) before use, and resumes where
/// it stopped (HTTP `Range`). The new version is assembled beside the held one and switched in
/// with one rename: ``currentDirectory`` always holds a whole version, the old or the new,
/// whenever the process is killed. An update that fails leaves the held version as it was.
public final class BundleClient: Sendable {
    /// The publication: an `http(s)://` or `file://` URL of the directory (the S3 prefix, as a
    /// web client sees it) holding `current.json`.
    public let source: URL
    /// The local directory the bundle is kept in (made when missing).
    public let directory: URL
    /// Which files are kept.
    public let files: BundleFileSelection
    /// The bounds everything read is held to.
    public let limits: BundleClientLimits
    private let events: @Sendable (BundleUpdateEvent) -> Void

    /// A client of the publication at `source` keeping its bundle in `directory`; `events` hears
    /// how an update goes (progress, deltas refused), on the update's thread.
    public init(source: URL, directory: URL, files: BundleFileSelection = .app, limits: BundleClientLimits = BundleClientLimits(),
                events: @escaping @Sendable (BundleUpdateEvent) -> Void = { _ in }) {
        self.source = source.lastPathComponent == PublishedPointer.key ? source.deletingLastPathComponent() : source
        self.directory = directory
        self.files = files
        self.limits = limits
        self.events = events
    }

    /// `directory/current`: the held version's files under their bundle names (a link that an
    /// update replaces in one rename; resolve it once and read the version it leads to).
    public var currentDirectory: URL { directory.appendingPathComponent(LocalDirectory.currentName) }

    /// The version held now, or nil when none is.
    public var heldVersion: String? { LocalDirectory(root: directory).held()?.version }

    /// Brings the local bundle to the publication's current version (see the type's description).
    /// Throws ``BundleClientError`` when it cannot; the held version is then as it was.
    public func update() async throws -> BundleUpdate {
        let source = try objectSource()
        defer { (source as? HTTPObjectSource)?.close() }
        let updater = Updater(source: source, local: LocalDirectory(root: directory), selection: files, limits: limits, events: events)
        // Blocking work (downloads, hashing, SQLite) runs on a thread of its own, not on Swift's cooperative pool.
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try updater.run() })
            }
        }
    }

    /// The held version, opened for queries.
    public func open() throws -> QuakeBundle {
        try QuakeBundle(directory: currentDirectory)
    }

    private func objectSource() throws -> ObjectSource {
        switch source.scheme?.lowercased() {
        case "http", "https":
            return HTTPObjectSource(base: source, idleTimeout: limits.idleTimeout)
        case "file":
            return FileObjectSource(base: source)
        default:
            throw BundleClientError(.refused, "\(HTTPObjectSource.redacted(source)): not an http://, https:// or file:// URL")
        }
    }
}
