import Foundation
import QuakeBundleFormat
import QuakeBundleKit
import QuakeCommon

/// The new pointer and every object it names, with where each object's bytes come from.
struct PublicationPlan: Sendable {
    var pointer: PublishedPointer
    var objects: [PlannedObject]
}

/// Plans a publication of a bundle over the previous pointer: every file of the manifest
/// under its content's key (the app database gzip-compressed, the style rewritten for
/// `--public-url`, the PMTiles object composed from the previously published one), the
/// step from the version published before, and the base (`DeltaChain`).
struct PointerPlanner {
    let manifest: BundleManifest
    let previous: PublishedPointer?
    let scratch: PublishScratch
    let options: PublishOptions
    /// Whether the store holds the object at a key relative to the prefix (a HEAD).
    let storeHas: @Sendable (String) async throws -> Bool
    /// Plans the PMTiles object for the bundle's `quakes.pmtiles`, given the small objects
    /// still to upload (which may ride in its uploaded part, see `PMTilesComposer`): the
    /// object and the riders' new plans.
    let pmtiles: @Sendable (BundleManifest.File, [PlannedObject]) async throws -> (PlannedObject, [PlannedObject])

    func plan() async throws -> PublicationPlan {
        var objects: [String: PlannedObject] = [:]
        var files: [PublishedFile] = []
        func add(_ object: PlannedObject, as file: PublishedFile) {
            objects[object.key] = object
            files.append(file)
        }
        func add(_ pair: (PlannedObject, PublishedFile)) { add(pair.0, as: pair.1) }
        for file in manifest.files where !file.path.hasPrefix(BundleFileName.deltas + "/") && ![BundleFileName.appDatabase, BundleFileName.tiles, BundleFileName.style, BundleFileName.pmtiles].contains(file.path) {
            add(plain(file.path, url: manifest.url(file.path), bytes: file.bytes, sha256: file.sha256))
        }
        let manifestURL = manifest.directory.appendingPathComponent(BundleFileName.manifest)
        let manifestBytes = Int64((try FileManager.default.attributesOfItem(atPath: manifestURL.path)[.size] as? Int) ?? 0)
        add(plain(BundleFileName.manifest, url: manifestURL, bytes: manifestBytes, sha256: try SHA256.hex(fileAt: manifestURL)))

        let (entries, stepObjects) = try await deltaEntries()
        for object in stepObjects { objects[object.key] = object }
        for (object, file) in try await baseFiles(entries: entries) { add(object, as: file) }
        if let file = manifest.file(BundleFileName.pmtiles) {
            var riders: [PlannedObject] = []
            for object in objects.values.sorted(by: { $0.key < $1.key }) where object.bytes <= Uploader.singlePutBytes {
                if case .file = object.source, !(try await storeHas(object.key)) { riders.append(object) }
            }
            let (object, carried) = try await pmtiles(file, riders)
            for rider in carried { objects[rider.key] = rider }
            add(object, as: PublishedFile(name: file.path, key: object.key, bytes: object.bytes, sha256: object.sha256))
        }
        if let style = manifest.file(BundleFileName.style) { add(try styleObject(style, files: files)) }

        let pointer = PublishedPointer(bundleVersion: manifest.version, files: files.sorted { $0.name < $1.name }, deltas: entries)
        // Objects the store copies out of another planned object come after it.
        return PublicationPlan(pointer: pointer, objects: objects.values.sorted { ($0.copiesOthers ? 1 : 0, $0.key) < ($1.copiesOthers ? 1 : 0, $1.key) })
    }

    /// A file uploaded as it is.
    private func plain(_ name: String, url: URL, bytes: Int64, sha256: String) -> (PlannedObject, PublishedFile) {
        let key = "objects/\(sha256)\(ObjectKinds.extensionOf(name))"
        return (PlannedObject(key: key, bytes: bytes, sha256: sha256, contentType: ObjectKinds.contentType(name), source: .file(url)),
                PublishedFile(name: name, key: key, bytes: bytes, sha256: sha256))
    }

    /// A SQLite file gzip-compressed for travel.
    private func gzipped(_ name: String, file: BundleManifest.File, baseVersion: String? = nil) throws -> (PlannedObject, PublishedFile) {
        let url = try scratch.gzipped(manifest.url(file.path), sha256: file.sha256)
        let bytes = Int64((try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0)
        let sha256 = try SHA256.hex(fileAt: url)
        let key = "objects/\(sha256)\(ObjectKinds.extensionOf(name)).gz"
        return (PlannedObject(key: key, bytes: bytes, sha256: sha256, contentType: "application/gzip", source: .file(url)),
                PublishedFile(name: name, key: key, bytes: bytes, sha256: sha256, encoding: "gzip", contentBytes: file.bytes,
                              contentSHA256: file.sha256, bundleVersion: baseVersion == nil ? nil : manifest.version, baseVersion: baseVersion))
    }

    /// The entries for older versions: the previous pointer's steps still in the store, and
    /// the step from the version published before when this bundle has it.
    private func deltaEntries() async throws -> ([PublishedDeltas], [PlannedObject]) {
        guard let previous else { return ([], []) }
        var steps = DeltaChain.steps(of: previous)
        for (from, files) in steps {
            for file in files where !(try await storeHas(file.key)) { steps[from] = nil }
        }
        var versions = previous.deltas.map(\.baseVersion)
        var objects: [PlannedObject] = []
        if previous.bundleVersion != manifest.version {
            let from = previous.bundleVersion
            versions.append(from)
            guard let tiles = manifest.file(BundleFileName.tilesDelta(from: from)), let rows = manifest.file(BundleFileName.rowsDelta(from: from)) else {
                return ([], [])  // no way from the version published before: apps download in full
            }
            var (tilesObject, tilesFile) = plain(tiles.path, url: manifest.url(tiles.path), bytes: tiles.bytes, sha256: tiles.sha256)
            tilesFile.baseVersion = from
            tilesFile.bundleVersion = manifest.version
            let (rowsObject, rowsFile) = try gzipped(rows.path, file: rows, baseVersion: from)
            steps[from] = [tilesFile, rowsFile]
            objects = [tilesObject, rowsObject]
        }
        let entries = DeltaChain.entries(from: versions, steps: steps, to: manifest.version)
        let named = Set(entries.flatMap { $0.files.map(\.key) })
        let planned = Set(objects.map(\.key))
        let reused = steps.values.flatMap { $0 }.filter { named.contains($0.key) && !planned.contains($0.key) }
        return (entries, objects + reused.map { PlannedObject(key: $0.key, bytes: $0.bytes, sha256: $0.sha256, contentType: "", source: .store) })
    }

    /// The app database and MBTiles the pointer names: the previous pointer's base while its
    /// steps fit `DeltaChain`'s bounds and it is in the store, else this version's own.
    private func baseFiles(entries: [PublishedDeltas]) async throws -> [(PlannedObject, PublishedFile)] {
        guard let database = manifest.file(BundleFileName.appDatabase), let tiles = manifest.file(BundleFileName.tiles) else {
            return try [manifest.file(BundleFileName.appDatabase).map { try gzipped($0.path, file: $0) },
                        manifest.file(BundleFileName.tiles).map { plain($0.path, url: manifest.url($0.path), bytes: $0.bytes, sha256: $0.sha256) }]
                .compactMap { $0 }
        }
        func current() throws -> [(PlannedObject, PublishedFile)] {
            [try gzipped(database.path, file: database), plain(tiles.path, url: manifest.url(tiles.path), bytes: tiles.bytes, sha256: tiles.sha256)]
        }
        guard let previous,
              let oldDatabase = previous.files.first(where: { $0.name == BundleFileName.appDatabase }),
              let oldTiles = previous.files.first(where: { $0.name == BundleFileName.tiles }) else { return try current() }
        let base = oldDatabase.bundleVersion ?? previous.bundleVersion
        guard base != manifest.version, oldTiles.bundleVersion ?? previous.bundleVersion == base,
              let entry = entries.first(where: { $0.baseVersion == base }) else { return try current() }
        // The two files this version would name, the app database's compressed size estimated
        // from the base's (compressing it costs seconds; its ratio moves slowly).
        let ratio = Double(oldDatabase.bytes) / Double(max(1, oldDatabase.contentBytes ?? oldDatabase.bytes))
        let full = tiles.bytes + Int64(Double(database.bytes) * ratio)
        guard DeltaChain.fits(entry, baseBytes: full), try await storeHas(oldDatabase.key), try await storeHas(oldTiles.key) else {
            return try current()
        }
        return [oldDatabase, oldTiles].map { file in
            var named = file
            named.bundleVersion = base
            return (PlannedObject(key: file.key, bytes: file.bytes, sha256: file.sha256, contentType: "", source: .store), named)
        }
    }

    /// The style as published: the bundle's own, or with `--public-url` its sources pointed at
    /// the published objects by absolute URLs (written to the scratch directory).
    private func styleObject(_ style: BundleManifest.File, files: [PublishedFile]) throws -> (PlannedObject, PublishedFile) {
        let url = manifest.url(style.path)
        guard let publicURL = options.publicURL else { return plain(style.path, url: url, bytes: style.bytes, sha256: style.sha256) }
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        let rewritten = StyleRewrite.pointing(text, at: publicURL, keys: Dictionary(files.map { ($0.name, $0.key) }, uniquingKeysWith: { a, _ in a }))
        let data = Data(rewritten.utf8)
        let sha256 = SHA256.hex(data)
        let copy = scratch.travelDirectory.appendingPathComponent("\(sha256).json")
        try AtomicFile.write(data, to: copy)
        return plain(style.path, url: copy, bytes: Int64(data.count), sha256: sha256)
    }
}
