import Foundation

/// Reads a file from outside (a ComCat file given with `index --from`, an archived page)
/// within limits, and says in words what is wrong when it cannot.
///
/// Limits: the file itself is at most `maxBytes`; gzip may inflate to at most `maxBytes`
/// and at most `inflationRatio` times its compressed size (with a floor of
/// `inflationFloor`): real ComCat GeoJSON and CSV compress 3 to 10 times, a gzip bomb a
/// thousand times, and is cut as it inflates, never held.
public enum InputFile {
    /// The default `maxBytes`: 4 GiB, room for a few million events of ComCat GeoJSON.
    public static let defaultMaxBytes = 4 << 30
    /// How many times its own size a gzip file may inflate to.
    public static let inflationRatio = 50
    /// What any gzip file may inflate to, however small.
    public static let inflationFloor = 64 << 20

    /// What a file is read for: its messages name it so.
    public enum Purpose: Sendable {
        /// A ComCat file or an archived page (`index --from`; the limit is `--max-file-size`).
        case catalog
        /// A `bake --config` file.
        case configuration
        /// A user's MapLibre style template (`--style`).
        case style
        /// An AWS credentials file (`publish: credentials_file:`).
        case credentials

        var noun: String {
            switch self {
            case .catalog: "a catalog file"
            case .configuration: "a configuration file"
            case .style: "a style file"
            case .credentials: "a credentials file"
            }
        }

        /// How the file's limit is set, if it can be.
        var limitSetting: String {
            self == .catalog ? " (--max-file-size)" : ""
        }
    }

    /// Why a file cannot be read, in words that name it.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// The bytes of the file at `url`, as stored (gzip stays gzip).
    ///
    /// Regular files and pipes (`--from <(zcat …)`) are read; a directory, a device or a
    /// socket is refused, as is anything over `maxBytes`.
    public static func bytes(of url: URL, maxBytes: Int = defaultMaxBytes, for purpose: Purpose = .catalog) throws(Problem) -> Data {
        let path = url.path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Problem(description: "\(path): cannot read: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Problem(description: "\(path): cannot read: \(String(cString: strerror(errno)))") }
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFIFO:
            break
        case S_IFDIR:
            throw Problem(description: "\(path): a directory, not \(purpose.noun)"
                          + (purpose == .catalog ? "; give the files in it (e.g. \(path)/*.geojson.gz)" : ""))
        default:
            throw Problem(description: "\(path): a device or socket, not \(purpose.noun)"
                          + (purpose == .catalog ? "; give a ComCat GeoJSON or CSV file" : ""))
        }
        let size = Int(status.st_size)
        if size > maxBytes { throw Problem(description: overLimit(path, size: size, maxBytes: maxBytes, for: purpose)) }
        var data = Data(count: max(size, 1 << 16))
        var filled = 0
        while true {
            if filled == data.count {
                guard filled <= maxBytes else {
                    throw Problem(description: "\(path): more than \(Format.bytes(maxBytes)), the limit for \(purpose.noun)\(purpose.limitSetting); not read")
                }
                data.count = min(data.count * 2, maxBytes + 1)
            }
            let count = data.count
            let read: Int
            do {
                read = try data.withUnsafeMutableBytes { try SystemIO.read(fd, into: $0.baseAddress! + filled, count: count - filled) }
            } catch {
                throw Problem(description: "\(path): cannot read: \(error)")
            }
            if read == 0 { break }
            filled += read
        }
        data.count = filled
        return data
    }

    /// The size of the regular file at `url`, symbolic links followed (a link's own size would
    /// make every limit taken from it that of a tiny file); nil for anything else (a pipe, a
    /// directory, a file that is not there).
    public static func regularFileSize(of url: URL) -> Int? {
        var status = stat()
        guard stat(url.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// What is said of a file of `size` bytes over the limit of `maxBytes`.
    public static func overLimit(_ path: String, size: Int, maxBytes: Int, for purpose: Purpose = .catalog) -> String {
        "\(path): \(Format.bytes(size)), over the \(Format.bytes(maxBytes)) limit for \(purpose == .catalog ? "one file" : purpose.noun)\(purpose.limitSetting); not read"
    }

    /// How far `compressedBytes` of gzip may inflate, within `maxBytes`.
    public static func inflationLimit(compressedBytes: Int, maxBytes: Int = defaultMaxBytes) -> Int {
        let (byRatio, overflow) = compressedBytes.multipliedReportingOverflow(by: inflationRatio)
        return min(maxBytes, max(inflationFloor, overflow ? .max : byRatio))
    }

    /// A file's text: its bytes, decompressed when they are gzip.
    public struct Body {
        /// The text, or as much of it as damaged gzip gave.
        public var text: Data
        /// What was wrong with the gzip (truncated, corrupt, bytes after its end), when something was.
        public var damage: String?
    }

    /// `data` decompressed when it is gzip (within `inflationLimit`), unchanged otherwise.
    /// Damaged gzip gives what it holds up to the damage, and the damage (`Gzip.salvage`: a
    /// truncated download keeps the events before the cut, as `gzip -d` would); so does gzip
    /// that inflates past the limit, up to the limit (`CatalogStream` reads a big file so: the
    /// same bytes give the same text, read whole or a piece at a time).
    public static func body(of data: Data, maxBytes: Int = defaultMaxBytes) -> Body {
        guard Gzip.isCompressed(data) else { return Body(text: data) }
        let limit = inflationLimit(compressedBytes: data.count, maxBytes: maxBytes)
        let (text, damage) = Gzip.salvage(data, limit: limit)
        switch damage {
        case nil: return Body(text: text)
        case is Gzip.SizeLimitExceeded: return Body(text: text, damage: overInflation(compressedBytes: data.count, limit: limit))
        case let damage?: return Body(text: text, damage: readUpToDamage(damage, text: text.count))
        }
    }

    /// The damage of gzip of `compressedBytes` that inflates past `limit`, whose text is read up to there.
    public static func overInflation(compressedBytes: Int, limit: Int) -> String {
        "a gzip file of \(Format.bytes(compressedBytes)) that inflates to more than \(Format.bytes(limit)) "
            + "(at most \(inflationRatio) times its size, and --max-file-size); read up to there"
    }

    /// The damage `failure` of gzip whose text is read up to there, `text` bytes.
    public static func readUpToDamage(_ failure: any Error, text: Int) -> String {
        "\(failure); read up to there (\(Format.bytes(text)) of text)"
    }
}
