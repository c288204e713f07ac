import Foundation
import QuakeBundleKit
import TestSupport

/// A publication made by the real `quake-bake publish` to `PREFIX` in a bucket of a real store
/// (SeaweedFS, signatures checked), read back as an app reads it: anonymously, over plain HTTP.
struct StorePublication {
    let store: StoreBucket
    /// The workspace `publish` keeps its scratch files and record in (the exports' own).
    let workspace: URL
    let prefix: String

    /// Where an app reads the publication: the store's public URL of the prefix.
    var url: URL { store.publicURL("\(prefix)/") }

    /// Publishes the bundle version directory `bundle` (its deltas included) and returns the
    /// pointer the store then holds.
    @discardableResult
    func publish(_ bundle: URL, extra: [String] = []) async throws -> PublishedPointer {
        _ = try await QuakeBakeCLI.run(["publish", "--workspace", workspace.path, "--bundle", bundle.path, "--to", store.target(prefix),
                                        "--endpoint", store.endpoint.absoluteString, "--credentials-file", try store.credentialsFile().path,
                                        "--quiet"] + extra).checked()
        return try await pointer()
    }

    /// Puts the file at `local` into the store at `key` (relative to the prefix), as an edit of
    /// the publication by someone other than `publish` would.
    func put(_ local: URL, key: String) async throws {
        try await store.s3.put(local, bucket: store.name, key: "\(prefix)/\(key)")
    }

    /// Overwrites the pointer with `pointer`.
    func write(_ pointer: PublishedPointer) async throws {
        let file = store.directory.path("written-\(UUID().uuidString.prefix(8)).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONEncoder().encode(pointer).write(to: file)
        try await put(file, key: PublishedPointer.key)
    }

    /// The pointer as the store holds it now (read by botocore, a witness of its own).
    func pointer() async throws -> PublishedPointer {
        let copy = store.directory.path("current-\(UUID().uuidString.prefix(8)).json")
        defer { try? FileManager.default.removeItem(at: copy) }
        try await store.s3.get(bucket: store.name, key: "\(prefix)/\(PublishedPointer.key)", to: copy)
        return try JSONDecoder().decode(PublishedPointer.self, from: Data(contentsOf: copy))
    }
}
