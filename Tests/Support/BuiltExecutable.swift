import Foundation

/// Finds the executables `swift build` / `swift test` put next to the running test binary.
public enum BuiltExecutable {
    /// The product `name`: `$override` when set, else next to the `.xctest` bundle or the test binary.
    public static func url(named name: String, override variable: String) throws -> URL {
        if let path = ProcessInfo.processInfo.environment[variable] { return URL(fileURLWithPath: path) }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directories: [URL] = []
        var url = testBinary
        while url.pathComponents.count > 1 {
            if url.pathExtension == "xctest" { directories.append(url.deletingLastPathComponent()) }
            url.deleteLastPathComponent()
        }
        directories.append(testBinary.deletingLastPathComponent())
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for directory in directories {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Missing(description: "\(name) not found next to the test binary (looked in \(directories.map(\.path).joined(separator: ", "))); "
                      + "build it with `swift build --product \(name)` or set \(variable)")
    }

    /// An executable that is not where it should be.
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }
}
