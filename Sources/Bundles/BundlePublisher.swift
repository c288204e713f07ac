import Foundation
import QuakeBundleFormat
import QuakeCommon

/// Bundle versions under the output directory, and the one atomic switch that publishes one.
///
/// ```
/// <out>/
///   v000007-<bundle version>/   a complete bundle
///   v000008-<bundle version>/
///   current -> v000008-…        symlink, replaced with rename(2)
///   .v000009-….qbtmp/           a bundle being written (debris if its run died)
/// ```
/// A version is written under a temporary name, renamed to its final name when
/// complete, and only then made current by renaming a new symlink over `current`,
/// so readers following `current` never see a half-written bundle.
struct BundlePublisher {
    let out: URL
    static let currentName = "current"

    struct Version {
        let sequence: Int
        let name: String
    }

    /// The version directory `current` points at, if any.
    func current() -> URL? {
        let link = out.appendingPathComponent(Self.currentName)
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link.path) else { return nil }
        let directory = target.hasPrefix("/") ? URL(fileURLWithPath: target, isDirectory: true)
            : out.appendingPathComponent(target, isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return directory
    }

    /// Complete versions this tool made, oldest first.
    ///
    /// A directory counts only when it is ours beyond doubt: named `v<6 digits>-<bundle
    /// version>`, a real directory (not a symlink), holding our `manifest.json` that names
    /// the same bundle version. Anything else in the output directory is the user's and is
    /// never pruned (a `v1-notes.txt` beside the bundles once was).
    func versions() -> [Version] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        return names.compactMap { name -> Version? in
            let parts = name.split(separator: "-", maxSplits: 1)
            guard parts.count == 2, parts[0].count == 7, parts[0].hasPrefix("v"),
                  parts[0].dropFirst().allSatisfy(\.isASCII), let sequence = Int(parts[0].dropFirst()),
                  isOurBundle(out.appendingPathComponent(name), bundleVersion: String(parts[1])) else { return nil }
            return Version(sequence: sequence, name: name)
        }.sorted { $0.sequence < $1.sequence }
    }

    /// True when `directory` is a real directory holding our manifest for `bundleVersion`.
    private func isOurBundle(_ directory: URL, bundleVersion: String) -> Bool {
        guard Self.isRealDirectory(directory),
              let data = try? Data(contentsOf: directory.appendingPathComponent(BundleFileName.manifest)), data.count < 16 << 20,
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return manifest["format"] as? String == Manifest.format && manifest["bundle_version"] as? String == bundleVersion
    }

    /// True when `url` is a directory itself, not a symlink to one (`lstat`).
    static func isRealDirectory(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Throws when the event cache directory is a symlink or not a directory: files in it
    /// are replaced and deleted, so following a planted link would touch files not ours.
    func checkCacheDirectory() throws {
        let cache = out.appendingPathComponent(EventCache.directoryName)
        var info = stat()
        guard lstat(cache.path, &info) == 0 else { return }  // absent: made when needed
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw QuakeBakeError("\(cache.path) is a symlink or not a directory; quake-bake keeps its export cache there "
                                 + "and will not follow it. Move it away and export again")
        }
    }

    /// Removes what killed runs left, and only that: in the output directory, version
    /// directories being written (`.v000009-<16 hex digits>.qbtmp`, real directories), the link
    /// made to switch `current` (`current.qbtmp`, a symlink) and spill files (`.spill-XXXXXX`);
    /// in its cache directory, the temporary names of the files kept there. A name an export
    /// did not make is the user's, whatever its suffix (`notes.qbtmp`, `mydata.qbtmp/`), and is
    /// never touched. (The caller holds the workspace lock.)
    func removeDebris() {
        let cache = out.appendingPathComponent(EventCache.directoryName)
        for (directory, isOurs) in [(out, Self.isOutputScratch), (cache, Self.isCacheScratch)] where Self.isRealDirectory(directory) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
                let url = directory.appendingPathComponent(name)
                var info = stat()
                guard lstat(url.path, &info) == 0, isOurs(name, info.st_mode & S_IFMT) else { continue }
                try? FileManager.default.removeItem(at: url)
            }
        }
    }

    /// Whether `name`, of file type `type`, in the output directory is scratch an export made.
    static func isOutputScratch(_ name: String, type: mode_t) -> Bool {
        let suffix = AtomicFile.temporarySuffix
        if name == currentName + suffix { return type == S_IFLNK }
        if name.hasPrefix(SpillFile.namePrefix) {
            let rest = name.dropFirst(SpillFile.namePrefix.count)
            return type == S_IFREG && rest.count == 6 && rest.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
        // `.v` + 6 digits + `-` + the 16 hex digits of a bundle version + the suffix.
        guard type == S_IFDIR, name.hasPrefix(".v"), name.hasSuffix(suffix) else { return false }
        let middle = Array(name.dropFirst(2).dropLast(suffix.count).utf8)
        return middle.count == 23 && middle[6] == UInt8(ascii: "-") && middle[..<6].allSatisfy { (0x30...0x39).contains($0) }
            && middle[7...].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Whether `name`, of file type `type`, in the cache directory is scratch an export made:
    /// the temporary names of the cache, the export state and the copies of the previous version's
    /// files, and `AtomicFile`'s of the published stamps (`.published-files.txt.<pid>-<n>.qbtmp`).
    static func isCacheScratch(_ name: String, type: mode_t) -> Bool {
        guard type == S_IFREG else { return false }
        let suffix = AtomicFile.temporarySuffix
        let fixed = [EventCache.fileName, ExportState.fileName, BundleFileName.appDatabase + ".previous", BundleFileName.tiles + ".previous"].map { $0 + suffix }
        if fixed.contains(name) { return true }
        let prefix = ".\(PublishedStamps.fileName)."
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return false }
        let numbers = name.dropFirst(prefix.count).dropLast(suffix.count).split(separator: "-", omittingEmptySubsequences: false)
        return numbers.count == 2 && numbers.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// Creates the output directory and the temporary directory of the next version.
    /// Returns it and its final location.
    func prepare(bundleVersion: String) throws -> (temporary: URL, final: URL) {
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try checkCacheDirectory()
        let link = out.appendingPathComponent(Self.currentName)
        if FileManager.default.fileExists(atPath: link.path), (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil {
            throw QuakeBakeError("\(link.path) exists and is not a symlink; move it away so bundles can be published")
        }
        let sequence = (versions().last?.sequence ?? 0) + 1
        let name = String(format: "v%06d-%@", sequence, bundleVersion)
        let temporary = out.appendingPathComponent(".\(name)\(AtomicFile.temporarySuffix)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        return (temporary, out.appendingPathComponent(name, isDirectory: true))
    }

    /// Renames the finished version into place and switches `current` to it.
    func publish(temporary: URL, final: URL) throws {
        guard rename(temporary.path, final.path) == 0 else {
            throw QuakeBakeError("cannot rename \(temporary.path) to \(final.path): \(String(cString: strerror(errno)))")
        }
        AtomicFile.syncDirectory(out)
        let link = out.appendingPathComponent(Self.currentName)
        let newLink = out.appendingPathComponent(Self.currentName + AtomicFile.temporarySuffix)
        unlink(newLink.path)
        guard symlink(final.lastPathComponent, newLink.path) == 0 else {
            throw QuakeBakeError("cannot create the symlink \(newLink.path): \(String(cString: strerror(errno)))")
        }
        guard rename(newLink.path, link.path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(newLink.path)
            throw QuakeBakeError("cannot switch \(link.path) to \(final.lastPathComponent): \(message)")
        }
        AtomicFile.syncDirectory(out)
    }

    /// Removes all but the newest `keep` versions (never the current one); returns the names removed.
    func prune(keep: Int) throws -> [String] {
        let current = self.current()?.lastPathComponent
        let all = versions()
        var removed: [String] = []
        for version in all.dropLast(keep) where version.name != current {
            try FileManager.default.removeItem(at: out.appendingPathComponent(version.name))
            removed.append(version.name)
        }
        return removed
    }
}
