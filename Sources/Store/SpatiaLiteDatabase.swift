import CSpatiaLite
import Foundation
import GRDB
import QuakeSQLite

/// A GRDB connection to a SpatiaLite database: SpatiaLite's functions are
/// registered on the connection as it opens, and its per-connection cache is
/// freed after the connection closes (GRDB has no close hook).
final class SpatiaLiteDatabase {
    /// The connection. One writer or reader at a time.
    let queue: DatabaseQueue
    private let caches: SpatiaLiteCaches

    /// How the connection is used.
    enum Mode {
        /// Read only; the file must exist.
        case read
        /// Read and write, WAL journal, fsync at checkpoints: crash safe for the live store.
        case write
        /// A scratch file being built in bulk: no journal, no fsync until the end. A crash
        /// leaves only debris, never a store (the file is renamed into place when complete).
        case bulk
    }

    /// Opens (creating when writing) the database at `url`. `cacheMiB` sizes the page cache:
    /// R-tree and index work thrash with SQLite's 2 MB default.
    init(url: URL, mode: Mode, cacheMiB: Int = 64) throws {
        let caches = SpatiaLiteCaches()
        var configuration = Configuration()
        configuration.readonly = mode == .read
        configuration.busyMode = .timeout(10)
        configuration.label = "quake-store"
        configuration.prepareDatabase { db in
            let cache = spatialite_alloc_connection()
            spatialite_init_ex(db.sqliteConnection, cache, 0)
            caches.add(cache)
            try db.execute(sql: "PRAGMA cache_size = -\(cacheMiB * 1024)")
            switch mode {
            case .read:
                break
            case .write:
                try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            case .bulk:
                // `threads`: SQLite's sorter may sort a CREATE INDEX on a second core (the index on
                // magnitude of 440,633 events: 0.92 -> 0.64 s); the index is the same.
                try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; PRAGMA threads = 2")
            }
        }
        do {
            queue = mode == .read ? try ReadOnlyDatabase.open(url.path, configuration: configuration)
                                  : try DatabaseQueue(path: url.path, configuration: configuration)
        } catch {
            caches.cleanup()
            throw error
        }
        self.caches = caches
    }

    /// Closes the connection and frees SpatiaLite's cache.
    func close() throws {
        try queue.close()
        caches.cleanup()
    }
}

/// SpatiaLite connection caches, freed once their connections are closed.
private final class SpatiaLiteCaches: @unchecked Sendable {
    private let lock = NSLock()
    private var caches: [UnsafeMutableRawPointer] = []

    func add(_ cache: UnsafeMutableRawPointer?) {
        guard let cache else { return }
        lock.withLock { caches.append(cache) }
    }

    func cleanup() {
        let freed = lock.withLock { () -> [UnsafeMutableRawPointer] in
            defer { caches = [] }
            return caches
        }
        for cache in freed { spatialite_cleanup_ex(cache) }
    }
}
