import Foundation

/// Hands memory freed by a finished phase back to the system.
///
/// glibc keeps freed heap pages for reuse, per thread arena. Where one thread
/// allocates and another frees (the index's reader and writer, the export's tile
/// encoders on worker threads while the main thread holds the event table), the
/// resident size drifts well above what is live; trimming between phases keeps
/// a million-event index or export under its memory budget.
public enum FreedMemory {
    /// Returns freed heap pages to the system (glibc `malloc_trim(0)`; nothing elsewhere), once
    /// `limitRetention` was called: a process without a memory budget keeps them for reuse.
    public static func release() {
        if lock.withLock({ limited }) { _ = mallocTrim?(0) }
    }

    /// Whether `limitRetention` was called (under `lock`).
    nonisolated(unsafe) private static var limited = false
    private static let lock = NSLock()

    /// Makes glibc keep less freed memory for the rest of the process: at most `arenas` malloc
    /// arenas (default: eight per core; each thread that allocates gets one, and what one frees
    /// stays there), and blocks of 1 MB or more mapped on their own and unmapped when freed
    /// (glibc otherwise raises that threshold up to 32 MB as big blocks are freed, and keeps
    /// them in the heap). A million-event export at zoom 12 peaked at 311–314 MB with the
    /// defaults, at 274–280 MB with two arenas, and at 261–272 MB with the fixed threshold too.
    public static func limitRetention(arenas: Int32 = 2) {
        lock.withLock { limited = true }
        _ = mallopt?(-8, arenas)  // M_ARENA_MAX
        _ = mallopt?(-3, 1 << 20)  // M_MMAP_THRESHOLD
    }

    /// glibc's `mallopt`, looked up like `malloc_trim`.
    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()

    /// glibc's `malloc_trim`, which Swift's Glibc module does not export.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
}
