import Foundation
import GRDB

/// Opens a database of ours for reading only, so that `status` and other readers answer on
/// a read-only workspace and on a full disk.
///
/// A WAL database needs its `-shm` file to be writable, or creatable, even to read. When
/// it is not (a read-only mount, a full disk), the file is opened as immutable instead
/// (`?immutable=1`): SQLite then reads the main file as it is, without locks or the
/// write-ahead log, so the last transactions not yet checkpointed may be missing. That is
/// good enough to say where things stand; nothing is ever written.
public enum ReadOnlyDatabase {
    /// A read-only connection to the database at `path`, with `configuration` (made
    /// read-only here). Throws when the file cannot be read at all.
    public static func open(_ path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        var configuration = configuration
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // A WAL database that cannot map its -shm fails at the first read, not at open.
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        } catch {
            guard FileManager.default.isReadableFile(atPath: path) else { throw error }
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
            return try DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: configuration)
        }
    }
}
