import Foundation
import QuakeBundleFormat

/// Reads and checks `current.json` before anything it names is used: a pointer that breaks any
/// rule is refused whole (a publication that names one hostile key is not trusted for the rest).
///
/// Names (bundle paths) and keys are relative paths of plain components (letters, digits, `.`,
/// `_`, `-`, `~`; none empty, `.` or `..`, none starting with a dot), so no name or key reaches
/// outside the local directory or the publication's prefix; versions are single such components
/// (they name directories); sizes lie within the limits and digests are sha256 hex.
struct PointerCheck {
    let limits: BundleClientLimits

    /// The pointer in `data`, checked.
    func pointer(from data: Data) throws -> PublishedPointer {
        guard data.count <= limits.pointerBytes else { throw refusal("it has \(data.count) bytes, more than the \(limits.pointerBytes) allowed") }
        let pointer: PublishedPointer
        do {
            pointer = try JSONDecoder().decode(PublishedPointer.self, from: data)
        } catch {
            throw refusal("it is not a pointer this library reads (\(Self.reason(error)))")
        }
        try check(pointer)
        return pointer
    }

    func check(_ pointer: PublishedPointer) throws {
        guard pointer.format == PublishedPointer.currentFormat else {
            throw refusal("its format is \(pointer.format); this library reads format \(PublishedPointer.currentFormat) (update the app)")
        }
        try version(pointer.bundleVersion, "its bundle_version")
        try files(pointer.files, "its files")
        for name in BundleFileName.synced {
            guard let file = pointer.files.first(where: { $0.name == name }) else { throw refusal("it names no \(name)") }
            guard file.baseVersion == nil else { throw refusal("its \(name) has a base_version (only a delta's files have one)") }
        }
        let bases = Set(pointer.files.filter { BundleFileName.synced.contains($0.name) }.map { $0.bundleVersion ?? pointer.bundleVersion })
        guard bases.count == 1 else { throw refusal("its \(BundleFileName.appDatabase) and \(BundleFileName.tiles) are of different versions") }
        for file in pointer.files where !BundleFileName.synced.contains(file.name) {
            guard file.bundleVersion == nil, file.baseVersion == nil else {
                throw refusal("its \(file.name) names versions (only \(BundleFileName.appDatabase) and \(BundleFileName.tiles) may be a base)")
            }
        }
        guard pointer.deltas.count <= limits.deltaChains else {
            throw refusal("it holds \(pointer.deltas.count) delta chains, more than the \(limits.deltaChains) allowed")
        }
        guard Set(pointer.deltas.map(\.baseVersion)).count == pointer.deltas.count else { throw refusal("two of its delta chains start from the same version") }
        for chain in pointer.deltas {
            try version(chain.baseVersion, "a delta chain's base_version")
            try files(chain.files, "the delta chain from \(chain.baseVersion)")
            for file in chain.files {
                guard let base = file.baseVersion, let target = file.bundleVersion else {
                    throw refusal("the delta \(file.name) does not name the versions it joins")
                }
                try version(base, "the delta \(file.name)'s base_version")
                try version(target, "the delta \(file.name)'s bundle_version")
            }
        }
    }

    private func files(_ files: [PublishedFile], _ what: String) throws {
        guard files.count <= limits.files else { throw refusal("\(what) name \(files.count) files, more than the \(limits.files) allowed") }
        guard Set(files.map(\.name)).count == files.count else { throw refusal("\(what) name a file twice") }
        for file in files {
            try Self.relativePath(file.name).map { throw refusal("\(what): the name \(SchemaCheck.shown(file.name)) \($0)") }
            try Self.relativePath(file.key).map { throw refusal("\(what): the key \(SchemaCheck.shown(file.key)) of \(file.name) \($0)") }
            guard (0...limits.fileBytes).contains(file.bytes) else {
                throw refusal("\(what): \(file.name) has \(file.bytes) bytes, outside 0…\(limits.fileBytes)")
            }
            guard Self.isDigest(file.sha256) else { throw refusal("\(what): the sha256 of \(file.name) is not 64 lowercase hex digits") }
            switch file.encoding {
            case nil:
                guard file.contentBytes == nil, file.contentSHA256 == nil else {
                    throw refusal("\(what): \(file.name) has content_bytes or content_sha256 but no encoding")
                }
            case "gzip":
                guard let bytes = file.contentBytes, (0...limits.fileBytes).contains(bytes) else {
                    throw refusal("\(what): \(file.name) is gzip without content_bytes within 0…\(limits.fileBytes)")
                }
                guard let digest = file.contentSHA256, Self.isDigest(digest) else {
                    throw refusal("\(what): \(file.name) is gzip without a content_sha256 of 64 lowercase hex digits")
                }
            case let other?:
                throw refusal("\(what): \(file.name) has the encoding \(SchemaCheck.shown(other)); this library decodes gzip only")
            }
            if let version = file.bundleVersion { try self.version(version, "\(what): \(file.name)'s bundle_version") }
            if let version = file.baseVersion { try self.version(version, "\(what): \(file.name)'s base_version") }
        }
    }

    private func version(_ version: String, _ what: String) throws {
        guard version.count <= 64, Self.relativePath(version) == nil, !version.contains("/") else {
            throw refusal("\(what) \(SchemaCheck.shown(version)) is not a version name (1 to 64 letters, digits, '.', '_', '-', '~')")
        }
    }

    /// Why `path` is not a safe relative path, or nil when it is one.
    static func relativePath(_ path: String) -> String? {
        if path.isEmpty { return "is empty" }
        if path.utf8.count > 1024 { return "is longer than 1,024 bytes" }
        if path.hasPrefix("/") { return "is absolute" }
        for component in path.split(separator: "/", omittingEmptySubsequences: false) {
            if component == ".." { return "holds `..`" }
            if component.isEmpty || component == "." { return "holds an empty or `.` component" }
            if component.hasPrefix(".") { return "holds a component starting with a dot" }
            if !component.unicodeScalars.allSatisfy({ allowed.contains($0) }) { return "holds a character other than letters, digits, '.', '_', '-', '~', '/'" }
        }
        return nil
    }

    private static let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-~")

    private static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private func refusal(_ why: String) -> BundleClientError {
        BundleClientError(.refused, "\(PublishedPointer.key): refused: \(why)")
    }

    private static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "no \((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context), DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not JSON" : "\(path) is not of the right kind"
        default:
            return "\(error)"
        }
    }
}
