import Foundation
import QuakeBundleFormat
import QuakeCommon

/// A copy of one of the current bundle's files, the start of the new version's file that an
/// incremental export patches, made on a thread of its own while the store is read (the read
/// keeps one core busy; later, every core is).
final class PreviousFileCopy: Sendable {
    /// Where the copy goes.
    let url: URL
    private let copying: BackgroundWork<Void>

    /// Starts copying `file` to `url`.
    init(copying file: URL, to url: URL) {
        self.url = url
        copying = BackgroundWork("export.previous-copy") {
            try? FileManager.default.removeItem(at: url)
            try FileCopy.copy(file, to: url)
        }
    }

    /// Waits for the copy: true when it is there.
    func wait() -> Bool {
        (try? copying.wait()) != nil
    }

    /// Moves the copy (made, and patched since) to `destination`, in the new version's directory.
    func move(to destination: URL) throws {
        guard rename(url.path, destination.path) == 0 else {
            throw QuakeBakeError("cannot move \(url.path) to \(destination.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Waits for the copy and removes it (if it was not moved away).
    func discard() {
        _ = wait()
        try? FileManager.default.removeItem(at: url)
    }
}

/// The copies an incremental export patches: the current bundle's app database and MBTiles,
/// made beside the export's cache (`EventCache.directoryName`).
struct PreviousCopies: Sendable {
    let appDatabase: PreviousFileCopy
    let mbtiles: PreviousFileCopy

    /// Starts copying the files of the version directory `current` into `out`'s cache directory.
    init(current: URL, out: URL) {
        let directory = EventCache.url(out: out).deletingLastPathComponent()
        func copy(_ name: String) -> PreviousFileCopy {
            PreviousFileCopy(copying: current.appendingPathComponent(name),
                             to: directory.appendingPathComponent(name + ".previous" + AtomicFile.temporarySuffix))
        }
        appDatabase = copy(BundleFileName.appDatabase)
        mbtiles = copy(BundleFileName.tiles)
    }

    /// Waits for both and removes what is left of them.
    func discard() {
        appDatabase.discard()
        mbtiles.discard()
    }
}
