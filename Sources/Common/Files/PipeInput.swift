import Foundation

extension InputFile {
    /// What a pipe held: its bytes when it was short, else the scratch file it was copied to.
    public enum PipeContents {
        case whole(Data)
        /// The pipe's bytes in a file of the temporary directory, which the caller removes.
        case spooled(URL)
    }

    /// Whether `url` is a pipe (`--from <(zcat …)`, a FIFO): it can be read only once.
    public static func isPipe(_ url: URL) -> Bool {
        var status = stat()
        return stat(url.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO
    }

    /// Reads the pipe at `url`: whole when it ends within `wholeUpTo` bytes; past that, all of
    /// it (at most `maxBytes`) is copied to a scratch file, so that a long pipe is read a piece
    /// at a time as a big file is, and is never whole in memory (3 GB of zeros through a pipe
    /// once took 4.25 GB).
    public static func readPipe(_ url: URL, wholeUpTo: Int, maxBytes: Int) throws(Problem) -> PipeContents {
        let path = url.path
        func failure(_ what: String) -> Problem { Problem(description: "\(path): cannot read: \(what)") }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: max(wholeUpTo + 1, 1 << 20))
        var filled = 0
        do {
            while filled < wholeUpTo + 1 {
                let read = try buffer.withUnsafeMutableBytes { try SystemIO.read(fd, into: $0.baseAddress! + filled, count: wholeUpTo + 1 - filled) }
                if read == 0 { break }
                filled += read
            }
        } catch {
            throw failure("\(error)")
        }
        let tooLong = Problem(description: "\(path): more than \(Format.bytes(maxBytes)), the limit for a catalog file (--max-file-size); not read")
        guard filled > wholeUpTo else {
            guard filled <= maxBytes else { throw tooLong }
            return .whole(Data(buffer[..<filled]))
        }
        var template = Array((FileManager.default.temporaryDirectory.path + "/quake-bake-pipe-XXXXXX").utf8CString)
        let out = mkstemp(&template)
        guard out >= 0 else { throw failure("no scratch file for it in \(FileManager.default.temporaryDirectory.path): \(String(cString: strerror(errno)))") }
        let scratch = URL(fileURLWithPath: String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
        defer { close(out) }
        do {
            var total = filled
            var count = filled
            while count > 0 {
                try buffer.withUnsafeBytes { try SystemIO.write(out, UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                count = try buffer.withUnsafeMutableBytes { try SystemIO.read(fd, into: $0.baseAddress!, count: $0.count) }
                total += count
                if total > maxBytes { throw tooLong }
            }
        } catch {
            unlink(scratch.path)
            throw (error as? Problem) ?? failure("\(error)")
        }
        return .spooled(scratch)
    }
}
