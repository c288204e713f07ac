import Foundation
import QuakeBundleFormat

/// One run of ``BundleClient/update()``, on a thread of its own: read the pointer, decide,
/// assemble the new version beside the held one, switch.
final class Updater: @unchecked Sendable {  // used by one thread at a time
    private let source: ObjectSource
    private let local: LocalDirectory
    private let selection: BundleFileSelection
    private let limits: BundleClientLimits
    private let events: (BundleUpdateEvent) -> Void
    private var notes: [String] = []

    init(source: ObjectSource, local: LocalDirectory, selection: BundleFileSelection, limits: BundleClientLimits,
         events: @escaping (BundleUpdateEvent) -> Void) {
        self.source = source
        self.local = local
        self.selection = selection
        self.limits = limits
        self.events = events
    }

    func run() throws -> BundleUpdate {
        let lock = try local.lock()
        defer { withExtendedLifetime(lock) {} }
        local.removeDebris()
        let downloads = Downloads(directory: local.downloads, source: source, limits: limits, events: events)
        let data: Data
        do {
            data = try source.readRetrying(PublishedPointer.key, limit: limits.pointerBytes, retries: limits.retries)
        } catch let error as TransferError {
            throw BundleClientError(error.kind == .temporary ? .unreachable : .refused,
                                    "\(source.shown): no pointer to read (\(error.description))")
        }
        downloads.count(data.count)
        let pointer = try PointerCheck(limits: limits).pointer(from: data)
        let held = local.held()
        if let held, held.version == pointer.bundleVersion, wholeFiles(of: pointer).allSatisfy(held.record.files.contains) {
            return BundleUpdate(way: .alreadyCurrent, previousVersion: held.version, version: pointer.bundleVersion,
                                downloadedBytes: downloads.received, notes: [])
        }
        let staging = try local.staging(for: pointer.bundleVersion)
        do {
            return try assemble(pointer, held: held, in: staging, downloads: downloads)
        } catch {
            try? FileManager.default.removeItem(at: staging)  // the downloads stay, for the next update to resume
            throw error
        }
    }

    /// Assembles the pointer's version in `staging` and switches to it.
    private func assemble(_ pointer: PublishedPointer, held: LocalDirectory.Held?, in staging: URL, downloads: Downloads) throws -> BundleUpdate {
        let whole = wholeFiles(of: pointer)
        for file in whole {
            let destination = staging.appendingPathComponent(file.name)
            if let held, let same = held.record.files.first(where: { $0.name == file.name }), same == file,
               (try? Downloads.place(held.directory.appendingPathComponent(file.name), at: destination, copy: false)) != nil {
                continue  // the same object as the held version's: nothing to download
            }
            try downloads.install(file, at: destination, copy: false)
        }
        let way = try syncedFiles(pointer, held: held, into: staging, downloads: downloads)
        try local.install(staging, record: LocalDirectory.Record(bundleVersion: pointer.bundleVersion, files: whole))
        return BundleUpdate(way: way, previousVersion: held?.version, version: pointer.bundleVersion,
                            downloadedBytes: downloads.received, notes: notes)
    }

    /// The pointer's files this client keeps whole (not brought up by deltas).
    private func wholeFiles(of pointer: PublishedPointer) -> [PublishedFile] {
        pointer.files.filter { !BundleFileName.synced.contains($0.name) && !$0.name.hasPrefix(BundleFileName.deltas + "/") && selection.contains($0.name) }
    }

    /// Puts `quakes.sqlite` and `quakes.mbtiles` of the pointer's version into `staging`: the held
    /// ones brought up by the chain from the held version when there is one and it passes every
    /// check; otherwise the pointer's (a base brought up by its own chain, whose failure is final).
    private func syncedFiles(_ pointer: PublishedPointer, held: LocalDirectory.Held?, into staging: URL, downloads: Downloads) throws -> BundleUpdate.Way {
        if let held, held.version == pointer.bundleVersion,  // only files the selection adds were missing
           (try? BundleFileName.synced.forEach { name in
               try Downloads.place(held.directory.appendingPathComponent(name), at: staging.appendingPathComponent(name), copy: false)
           }) != nil {
            return .alreadyCurrent
        }
        if let held, let chain = pointer.deltas.first(where: { $0.baseVersion == held.version }) {
            do {
                for name in BundleFileName.synced {
                    try copy { try Downloads.place(held.directory.appendingPathComponent(name), at: staging.appendingPathComponent(name), copy: true) }
                }
                try apply(chain, to: pointer.bundleVersion, in: staging, downloads: downloads)
                return .deltas
            } catch let error as BundleClientError where error.kind == .refused {
                let note = "the deltas from \(held.version) were refused, so \(pointer.bundleVersion) is downloaded whole: \(error.message)"
                notes.append(note)
                events(.note(note))
            }
        }
        var base = pointer.bundleVersion
        for name in BundleFileName.synced {
            let file = pointer.files.first { $0.name == name }!
            let destination = staging.appendingPathComponent(name)
            try downloads.install(file, at: destination, copy: true)
            base = file.bundleVersion ?? pointer.bundleVersion
            try check(destination, file: name, version: base)
        }
        if base != pointer.bundleVersion {
            guard let chain = pointer.deltas.first(where: { $0.baseVersion == base }) else {
                throw BundleClientError(.refused, "\(PublishedPointer.key): refused: its files are of version \(base) and it has no deltas from it")
            }
            try apply(chain, to: pointer.bundleVersion, in: staging, downloads: downloads)
        }
        return .full
    }

    /// Applies the steps of `chain` to the synced files in `staging`, each step's tiles first,
    /// then its rows (which carry the version).
    private func apply(_ chain: PublishedDeltas, to target: String, in staging: URL, downloads: Downloads) throws {
        for step in try DeltaChain(chain, to: target, maxSteps: limits.deltaSteps).steps {
            events(.applying(base: step.base, target: step.target))
            for file in [BundleSchema.tiles, BundleSchema.appDatabase] {
                let delta = step.files[file.name]!
                let decoded = staging.appendingPathComponent(".delta" + LocalDirectory.temporarySuffix)
                try downloads.install(delta, at: decoded, copy: false)
                defer { try? FileManager.default.removeItem(at: decoded) }
                do {
                    try DeltaApplier(file: file, limits: limits).apply(decoded, to: staging.appendingPathComponent(file.name), base: step.base, next: step.target)
                } catch let error as SchemaCheck.Refusal {
                    throw BundleClientError(.refused, "\(delta.name) (\(delta.key)): refused: \(error.description)")
                } catch let error as SQLiteError {
                    throw BundleClientError(.refused, "\(delta.name) (\(delta.key)): refused: \(error.message)")
                }
            }
        }
    }

    /// Checks a synced file downloaded whole against its declared schema, and the app database's version.
    private func check(_ url: URL, file name: String, version: String) throws {
        let synced = name == BundleSchema.appDatabase.name ? BundleSchema.appDatabase : BundleSchema.tiles
        do {
            let db = try SQLiteConnection(url, readOnly: true)
            try SchemaCheck(connection: db, database: "main", schema: synced.fileSchema, maxRows: limits.rows).run()
            if synced.name == BundleSchema.appDatabase.name {
                let held = try db.text("SELECT value FROM \(BundleSchema.info.table.quoted) WHERE name = '\(AppDatabaseSchema.Info.bundleVersion)'")
                guard held == version else { throw SchemaCheck.Refusal("it names version \(held.map { SchemaCheck.shown($0) } ?? "none"), not \(version)") }
            }
        } catch let error as SchemaCheck.Refusal {
            throw BundleClientError(.refused, "\(name): refused: \(error.description)")
        } catch let error as SQLiteError {
            throw BundleClientError(.refused, "\(name): refused: \(error.message)")
        }
    }

    /// Runs `body`, a copy of the held version's files: when it fails (a file removed), the deltas
    /// cannot be applied, and the version is downloaded whole instead.
    private func copy(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            throw BundleClientError(.refused, "cannot copy the held version's files: \((error as NSError).localizedDescription)")
        }
    }
}
