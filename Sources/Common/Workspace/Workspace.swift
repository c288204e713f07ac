import Foundation

/// Where quake-bake keeps its state: raw pages, the store, bundles and run records.
///
/// ```
/// <root>/
///   archive/journal.sqlite     fetch plan, window states, page manifest, request stats
///   archive/pages/…            raw pages as received, gzip
///   store/quakes.sqlite        the SpatiaLite store (`index`)
///   bundles/                   bundle versions and `current` (`export`, default --out)
///   runs.sqlite                run history for `status`
///   publish/                   what `publish` keeps between runs (gzip copies, the last published PMTiles per target)
///   lock                       held while a stage runs
/// ```
public struct Workspace: Sendable, Hashable {
    /// The workspace directory.
    public let root: URL

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// The environment variable that names the workspace when `--workspace` is not given.
    public static let environmentVariable = "QUAKE_BAKE_WORKSPACE"

    /// Resolves the workspace: an explicit path, else `$QUAKE_BAKE_WORKSPACE`,
    /// else `$XDG_DATA_HOME/quake-bake`, else `~/.local/share/quake-bake`.
    public static func resolve(_ explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> Workspace {
        if let explicit, !explicit.isEmpty { return Workspace(root: URL(fileURLWithPath: explicit)) }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty {
            return Workspace(root: URL(fileURLWithPath: fromEnvironment))
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return Workspace(root: URL(fileURLWithPath: xdg).appendingPathComponent("quake-bake"))
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return Workspace(root: home.appendingPathComponent(".local/share/quake-bake"))
    }

    /// The raw page archive written by `fetch` and read by `index`.
    public var archiveDirectory: URL { root.appendingPathComponent("archive") }
    /// Gzip pages inside the archive.
    public var pagesDirectory: URL { archiveDirectory.appendingPathComponent("pages") }
    /// The fetch journal: plan, window states, page manifest, request statistics.
    public var journalPath: URL { archiveDirectory.appendingPathComponent("journal.sqlite") }
    /// The SpatiaLite store.
    public var storePath: URL { root.appendingPathComponent("store/quakes.sqlite") }
    /// The default bundle output directory.
    public var bundlesDirectory: URL { root.appendingPathComponent("bundles") }
    /// Run history kept for `status`.
    public var runsPath: URL { root.appendingPathComponent("runs.sqlite") }
    /// What `publish` keeps between runs: gzip copies on their way to the store, and per
    /// target the PMTiles object it published last.
    public var publishDirectory: URL { root.appendingPathComponent("publish") }
    /// The lock file held while a stage runs.
    public var lockPath: URL { root.appendingPathComponent("lock") }

    /// Creates the workspace directory if needed.
    public func create() throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }
}
