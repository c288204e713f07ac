import Foundation

/// The objects of one update: downloaded into `DIR/downloads/` under the sha256 the pointer gives
/// (a download cut short stays as `<sha256>.part` and the next attempt, in this update or the
/// next, goes on from its end), checked (size, sha256) before anything uses them, then put into
/// the version being assembled as the bundle's file (gzip decoded and checked again).
final class Downloads {
    private let directory: URL
    private let source: ObjectSource
    private let limits: BundleClientLimits
    private let events: (BundleUpdateEvent) -> Void
    /// Bytes received from the source so far.
    private(set) var received: Int64 = 0

    init(directory: URL, source: ObjectSource, limits: BundleClientLimits, events: @escaping (BundleUpdateEvent) -> Void) {
        self.directory = directory
        self.source = source
        self.limits = limits
        self.events = events
    }

    /// Counts bytes received outside ``object(_:)`` (the pointer).
    func count(_ bytes: Int) { received += Int64(bytes) }

    /// The object of `file`, downloaded and checked (size and sha256 as the pointer gives them).
    func object(_ file: PublishedFile) throws -> URL {
        let done = directory.appendingPathComponent(file.sha256)
        if let size = Self.size(done), size == file.bytes { return done }
        let partial = directory.appendingPathComponent(file.sha256 + ".part")
        for attempt in 0..<2 {
            try fetch(file, into: partial)
            let digest = try local { try SHA256Digest.hex(fileAt: partial) }
            if digest == file.sha256 {
                try local { try FileManager.default.moveItem(at: partial, to: done) }
                return done
            }
            try? FileManager.default.removeItem(at: partial)  // damaged on the way, or a partial that was not this object's
            if attempt == 1 { break }
        }
        throw BundleClientError(.refused, "\(file.name) (\(file.key)): its sha256 is not the one the pointer gives, twice")
    }

    /// Puts `file` into the version being assembled at `destination`: the object itself (a hard
    /// link, or a copy when `copy` or when linking is not possible), or decoded when gzip.
    func install(_ file: PublishedFile, at destination: URL, copy: Bool) throws {
        let object = try object(file)
        try local { try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true) }
        guard file.encoding == "gzip", let bytes = file.contentBytes, let digest = file.contentSHA256 else {
            try local { try Self.place(object, at: destination, copy: copy) }
            return
        }
        let decoded: GzipFile.Decoded
        do {
            decoded = try GzipFile.decode(object, to: destination, limit: bytes)
        } catch let error as GzipError {
            throw BundleClientError(.refused, "\(file.name) (\(file.key)): \(error)")
        } catch {
            throw BundleClientError(.local, "cannot write \(destination.path): \((error as NSError).localizedDescription)")
        }
        guard decoded == GzipFile.Decoded(bytes: bytes, sha256: digest) else {
            throw BundleClientError(.refused, "\(file.name) (\(file.key)): decoded, it has \(decoded.bytes) bytes and a sha256 other than the \(bytes) bytes and content_sha256 the pointer gives")
        }
    }

    /// Hard-links (or copies) `source` to `destination`.
    static func place(_ source: URL, at destination: URL, copy: Bool) throws {
        try? FileManager.default.removeItem(at: destination)
        if !copy, (try? FileManager.default.linkItem(at: source, to: destination)) != nil { return }
        try FileManager.default.copyItem(at: source, to: destination)
    }

    /// Downloads into `partial` until it holds the object's size, from where it stopped: a
    /// temporary failure is tried again after a pause (the count starts over whenever bytes came).
    private func fetch(_ file: PublishedFile, into partial: URL) throws {
        if Self.size(partial) == nil { _ = FileManager.default.createFile(atPath: partial.path, contents: nil) }
        let handle = try local { try FileHandle(forWritingTo: partial) }
        defer { try? handle.close() }
        var held = Int64(try local { try handle.seekToEnd() })
        if held > file.bytes {
            try local { try handle.truncate(atOffset: 0) }
            held = 0
        }
        var failures = 0
        while held < file.bytes {
            let before = held
            var got = held
            do {
                held = try source.download(file.key, into: handle, from: held, expected: file.bytes) { [self] piece in
                    received += piece
                    got += piece
                    events(.downloading(name: file.name, done: got, total: file.bytes))
                }
                events(.downloading(name: file.name, done: held, total: file.bytes))
                if held < file.bytes { throw TransferError(kind: .temporary, description: "\(source.shown): \(file.key) ended after \(held) of \(file.bytes) bytes") }
            } catch let error as TransferError {
                held = Int64(try local { try handle.seekToEnd() })
                switch error.kind {
                case .temporary:
                    failures = held > before ? 0 : failures + 1
                    guard failures <= limits.retries else { throw BundleClientError(.unreachable, error.description) }
                    Retry.pause(failures)
                case .missing:
                    throw BundleClientError(.refused, "\(file.name): the pointer names \(file.key), which the source does not have (\(error.description))")
                case .refused:
                    throw BundleClientError(.refused, "\(file.name): \(error.description)")
                }
            }
        }
    }

    static func size(_ url: URL) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
    }

    private func local<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as BundleClientError {
            throw error
        } catch {
            throw BundleClientError(.local, "\(directory.path): \((error as NSError).localizedDescription)")
        }
    }
}
