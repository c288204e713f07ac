import Foundation

/// Hands memory freed by a finished phase back to the system.
///
/// glibc keeps freed heap pages for reuse, per thread arena; the tile encoders
/// allocate on dispatch worker threads while the main thread holds the event
/// table, so without trimming the resident size drifts well above what is live.
/// Trimming between phases keeps a million-event export under its memory budget.
enum FreedMemory {
    /// Returns freed heap pages to the system (glibc `malloc_trim(0)`; nothing elsewhere).
    static func release() {
        _ = mallocTrim?(0)
    }

    /// glibc's `malloc_trim`, which Swift's Glibc module does not export.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
}
