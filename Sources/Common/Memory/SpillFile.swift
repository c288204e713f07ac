import Foundation

/// A scratch file on disk that holds big per-event columns (`SpillableArray`) while a
/// command runs, so that they do not count against its memory: the export of the whole
/// catalog keeps its event table here.
///
/// The file is mapped into memory whole, so the columns are read and written like arrays;
/// what the process has touched stays resident until `releaseResident()` hands it back to
/// the kernel's page cache (nothing is lost: the pages are the file's, and a later read
/// faults them back in). Callers release between phases and every so often within one, so
/// that what counts against the process is what it works on at the moment, not all it has
/// touched.
///
/// The file has no name (it is unlinked as soon as it is made), so a crash leaves nothing
/// behind. Its space is reserved on disk when a column is placed in it: a full disk makes
/// `allocate` return `nil`, and the column stays in memory instead (a write into a mapped
/// page without disk space behind it would kill the process).
public final class SpillFile: @unchecked Sendable {
    private let descriptor: Int32
    private let base: UnsafeMutableRawPointer
    private let lock = NSLock()
    /// Bytes of the file handed out so far (freed stretches are not reused: they are
    /// returned to the file system as holes).
    private var end = 0
    /// Bytes handed out and not freed.
    private var live = 0
    /// A file this small stays resident whole: letting go of it would save less than the page
    /// faults that bring it back cost.
    private let residentAllowance: Int
    /// The address space mapped: far more than any file will reach; only `end` bytes exist.
    private static let reserved = 1 << 40
    private static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// How the file is named for the moment between its making and its unlinking (a crash just
    /// then leaves it: the export removes such files as it starts).
    public static let namePrefix = ".spill-"

    /// Makes a nameless file in `directory`; `nil` when the directory cannot hold one. While it
    /// holds at most `residentAllowance` bytes, `releaseResident()` leaves it be (the default,
    /// 64 MB, keeps the table of half a million events whole).
    public init?(directory: URL, residentAllowance: Int = 64 << 20) {
        self.residentAllowance = residentAllowance
        var template = Array(directory.appendingPathComponent(Self.namePrefix + "XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        guard let mapped = mmap(nil, Self.reserved, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, descriptor, 0),
              mapped != MAP_FAILED else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        base = mapped
    }

    deinit {
        munmap(base, Self.reserved)
        close(descriptor)
    }

    /// Room for `bytes` bytes, page-aligned, zero-filled; `nil` when the disk has no room.
    func allocate(_ bytes: Int) -> UnsafeMutableRawPointer? {
        let length = max(Self.page, (bytes + Self.page - 1) / Self.page * Self.page)
        return lock.withLock {
            guard end + length <= Self.reserved, posix_fallocate(descriptor, off_t(end), off_t(length)) == 0 else { return nil }
            defer { end += length; live += length }
            return base + end
        }
    }

    /// Gives back the room of `allocate(bytes)` at `pointer`: its pages leave memory and disk.
    func free(_ pointer: UnsafeMutableRawPointer, bytes: Int) {
        let length = max(Self.page, (bytes + Self.page - 1) / Self.page * Self.page)
        madvise(pointer, length, MADV_DONTNEED)
        lock.withLock { live -= length }
        _ = Self.fallocate?(descriptor, 2 | 1, off_t(pointer - base), off_t(length))  // FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE
    }

    /// Linux's `fallocate`, which Swift's Glibc module does not export (it needs `_GNU_SOURCE`).
    private static let fallocate: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "fallocate") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32).self)
    }()

    /// Bytes of the file handed out and not freed: what the arrays kept in it take.
    public var liveBytes: Int { lock.withLock { live } }

    /// Bytes of the file resident in this process's memory now (its mapping's `Rss` in
    /// /proc/self/smaps), for the tests; `nil` where that cannot be read.
    public var residentBytes: Int? {
        // Read to its end (a file of /proc says it has no size: a read by size gets a first page only).
        guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return nil }
        let smaps = String(decoding: data, as: UTF8.self)
        let start = String(UInt(bitPattern: base), radix: 16)
        var inside = false
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), line[..<dash].allSatisfy(\.isHexDigit) {
                inside = line[..<dash].drop(while: { $0 == "0" }) == start
            } else if inside, line.hasPrefix("Rss:") {
                return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
            }
        }
        return nil
    }

    /// Drops every page of the file from the process's memory (they stay in the page cache and
    /// on disk, and come back when read), unless the file is small enough to stay whole. Safe
    /// while other threads read or write the columns.
    public func releaseResident() {
        let used = lock.withLock { live > residentAllowance ? end : 0 }
        if used > 0 { madvise(base, used, MADV_DONTNEED) }
    }
}
