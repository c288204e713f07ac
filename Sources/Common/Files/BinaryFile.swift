import Foundation

/// Writes a file of raw values and arrays in the machine's byte order, for caches that
/// only the same program reads back (the export's event cache): no parsing, and each
/// array goes to the file straight from its storage, so a large table is not copied.
///
/// Every value and array is added to a running checksum that `finish()` writes last;
/// `BinaryReader` recomputes it, so a torn or damaged file is refused, not misread.
public struct BinaryWriter {
    private let descriptor: Int32
    private let url: URL
    private var staging: [UInt8] = []
    private var checksum = Checksum()

    /// Creates (or truncates) the file at `url`.
    public init(url: URL) throws {
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw BinaryFileError("cannot create \(url.path): \(String(cString: strerror(errno)))") }
        self.url = url
        staging.reserveCapacity(1 << 16)
    }

    /// Adds one number.
    public mutating func put<T: FixedWidthInteger>(_ value: T) throws {
        try withUnsafeBytes(of: value) { try stage($0) }
    }

    /// Adds one double (its bits).
    public mutating func put(_ value: Double) throws { try put(value.bitPattern) }

    /// Adds an array: its count, then its elements' bytes.
    public mutating func put<T: BitwiseCopyable>(_ array: [T]) throws {
        try put(UInt64(array.count))
        try array.withUnsafeBytes { try putElements($0) }
    }

    /// Adds a spillable array, as `put(_:)` adds an array (read back by either `get`): a
    /// megabyte at a time, letting go of each (see `SpillFile`) when it is in a spill file.
    public mutating func put<T: BitwiseCopyable>(_ array: SpillableArray<T>) throws {
        try put(UInt64(array.count))
        try array.withUnsafeBytes { bytes in
            var start = 0
            repeat {
                let end = min(bytes.count, start + (1 << 20))
                try putElements(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                array.spill?.releaseResident()
                start = end
            } while start < bytes.count
        }
    }

    private mutating func putElements(_ bytes: UnsafeRawBufferPointer) throws {
        if bytes.count < 1 << 12 { return try stage(bytes) }
        checksum.add(bytes)
        try flush()
        try writeAll(bytes)
    }

    /// Writes the checksum and closes the file.
    public mutating func finish() throws {
        withUnsafeBytes(of: checksum.value) { staging.append(contentsOf: $0) }
        try flush()
        guard close(descriptor) == 0 else { throw BinaryFileError("cannot close \(url.path): \(String(cString: strerror(errno)))") }
    }

    /// Closes the file without finishing it (after an error).
    public func abandon() { close(descriptor) }

    private mutating func stage(_ bytes: UnsafeRawBufferPointer) throws {
        checksum.add(bytes)
        staging.append(contentsOf: bytes)
        if staging.count >= 1 << 16 { try flush() }
    }

    private mutating func flush() throws {
        guard !staging.isEmpty else { return }
        try staging.withUnsafeBytes { try writeAll($0) }
        staging.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try SystemIO.write(descriptor, bytes)
        } catch {
            throw BinaryFileError("cannot write \(url.path): \(error)")
        }
    }
}

/// Reads a file written by `BinaryWriter`, value by value in the same order; arrays are read
/// from the file straight into their storage (the file is never held in memory whole).
public final class BinaryReader {
    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var checksum = Checksum()
    /// The bytes of the file not read from it yet (its size when opened, less what `read` gave).
    private var unread = 0

    /// Opens the file at `url` (`nil` when it cannot be opened).
    public init?(url: URL) {
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        unread = fstat(descriptor, &status) == 0 ? Int(status.st_size) : Int.max / 2
    }

    deinit { close(descriptor) }

    /// The next number.
    public func get<T: FixedWidthInteger>(_ type: T.Type = T.self) throws -> T {
        var value = T.zero
        try withUnsafeMutableBytes(of: &value) { try fill($0) }
        return value
    }

    /// The next double.
    public func get(_ type: Double.Type) throws -> Double { Double(bitPattern: try get(UInt64.self)) }

    /// The next array (at most `limit` elements).
    public func get<T: BitwiseCopyable>(_ type: [T].Type, limit: Int = Int(Int32.max)) throws -> [T] {
        let n = try arrayCount(T.self, limit: limit)
        return try [T](unsafeUninitializedCapacity: n) { storage, initialized in
            try fill(UnsafeMutableRawBufferPointer(storage))
            initialized = n
        }
    }

    /// The next array (at most `limit` elements), kept in `spill`.
    public func get<T: BitwiseCopyable>(_ type: SpillableArray<T>.Type, spill: SpillFile?, limit: Int = Int(Int32.max)) throws -> SpillableArray<T> {
        let n = try arrayCount(T.self, limit: limit)
        return try SpillableArray(count: n, spill: spill) { try fill(UnsafeMutableRawBufferPointer($0)) }
    }

    /// The next array's count, checked against `limit` and against what is left of the file (a
    /// damaged count is refused before any room is made for it).
    private func arrayCount<T>(_ type: T.Type, limit: Int) throws -> Int {
        let count = try get(UInt64.self)
        guard count <= UInt64(limit) else { throw BinaryFileError("an array is longer than its limit") }
        // What is left: the bytes not read from the file yet and those buffered (no system call:
        // a cache holds a hundred thousand arrays).
        let left = max(0, unread) + (end - start)
        guard count <= UInt64(left / max(1, MemoryLayout<T>.stride)) else {
            throw BinaryFileError("an array is longer than the rest of the file")
        }
        return Int(count)
    }

    /// Reads up to `count` bytes into `target`: how many, 0 at the end of the file.
    private func readSome(into target: UnsafeMutableRawPointer, count: Int) throws -> Int {
        do {
            return try SystemIO.read(descriptor, into: target, count: count)
        } catch {
            throw BinaryFileError("cannot read it: \(error)")
        }
    }

    /// Checks the checksum and that nothing follows it.
    public func finish() throws {
        let expected = checksum.value
        let stored = try get(UInt64.self)
        var extra: UInt8 = 0
        guard stored == expected else { throw BinaryFileError("the checksum does not match") }
        guard start == end, try readSome(into: &extra, count: 1) == 0 else { throw BinaryFileError("bytes follow the checksum") }
    }

    /// Fills `target` with the next bytes of the file.
    private func fill(_ target: UnsafeMutableRawBufferPointer) throws {
        var done = 0
        let buffered = min(end - start, target.count)
        if buffered > 0 {
            buffer.withUnsafeBytes { target.baseAddress!.copyMemory(from: $0.baseAddress! + start, byteCount: buffered) }
            start += buffered
            done = buffered
        }
        if target.count - done >= buffer.count {
            while done < target.count {
                let got = try readSome(into: target.baseAddress! + done, count: target.count - done)
                guard got > 0 else { throw BinaryFileError("the file ends early") }
                unread -= got
                done += got
            }
        }
        while done < target.count {
            let got = try buffer.withUnsafeMutableBytes { try readSome(into: $0.baseAddress!, count: $0.count) }
            guard got > 0 else { throw BinaryFileError("the file ends early") }
            unread -= got
            (start, end) = (0, got)
            let take = min(got, target.count - done)
            buffer.withUnsafeBytes { (target.baseAddress! + done).copyMemory(from: $0.baseAddress!, byteCount: take) }
            start = take
            done += take
        }
        checksum.add(UnsafeRawBufferPointer(target))
    }
}

/// A damaged or foreign binary file.
public struct BinaryFileError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A fast 64-bit checksum of a byte sequence (four multiply-rotate lanes of 8-byte words),
/// whatever runs it comes in: the writer adds a big array a megabyte at a time, the reader
/// in one run, and both must agree (a checksum of runs once made every cache of more than a
/// megabyte per column unreadable). Enough to notice a torn or damaged cache file, not a
/// cryptographic hash.
private struct Checksum {
    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0x85EB_CA77_C2B2_AE63)
    private var length: UInt64 = 0
    /// The bytes after the last whole 32-byte block (fewer than 32), zero-filled beyond.
    private var pending: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var pendingCount = 0
    private static let prime: UInt64 = 0x9FB2_1C65_1E98_DF25

    @inline(__always)
    private static func mix(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let x = (lane ^ word) &* prime
        return (x << 31 | x >> 33) &+ word
    }

    @inline(__always)
    private mutating func block(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
        lanes = (Self.mix(lanes.0, w0), Self.mix(lanes.1, w1), Self.mix(lanes.2, w2), Self.mix(lanes.3, w3))
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        guard n > 0, let base = bytes.baseAddress else { return }
        length &+= UInt64(n)
        var i = 0
        if pendingCount > 0 {
            let take = min(32 - pendingCount, n)
            let count = pendingCount
            withUnsafeMutableBytes(of: &pending) { $0.baseAddress!.advanced(by: count).copyMemory(from: base, byteCount: take) }
            pendingCount += take
            i = take
            guard pendingCount == 32 else { return }
            block(pending.0, pending.1, pending.2, pending.3)
            (pending, pendingCount) = ((0, 0, 0, 0), 0)
        }
        while i + 32 <= n {
            block(bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self),
                  bytes.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
            i += 32
        }
        if i < n {
            let rest = n - i
            withUnsafeMutableBytes(of: &pending) { $0.baseAddress!.copyMemory(from: base + i, byteCount: rest) }
            pendingCount = rest
        }
    }

    var value: UInt64 {
        var (a, b, c, d) = lanes
        if pendingCount > 0 {
            (a, b, c, d) = (Self.mix(a, pending.0), Self.mix(b, pending.1), Self.mix(c, pending.2), Self.mix(d, pending.3 ^ UInt64(pendingCount)))
        }
        var h = Self.mix(Self.mix(Self.mix(Self.mix(length, a), b), c), d)
        h ^= h >> 29
        return h &* Self.prime
    }
}
