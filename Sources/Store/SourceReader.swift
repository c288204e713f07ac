import Foundation
import QuakeCatalog
import QuakeCommon

/// Reads and parses sources on a background thread, one source ahead of the
/// writer, so that parsing and writing use both cores (more lookahead only costs
/// memory: a parsed page of 20,000 events takes some 25 MB).
final class SourceReader: @unchecked Sendable {
    /// One source, read.
    struct Item {
        let source: IndexSource
        let content: Content
    }

    enum Content {
        /// The file could not be read at all.
        case unreadable(String)
        /// The body's SHA-256 is in `sources` already.
        case alreadyIndexed(sha256: String)
        /// The parsed page; `excerpt` is the start of the body, kept for a whole-document reject.
        case read(sha256: String, page: CatalogPage, excerpt: String)
    }

    private let condition = NSCondition()
    private var ready: [Item] = []
    private var finished = false
    private var stopped = false
    private let lookahead: Int
    private var readingSeconds = 0.0

    /// Starts reading `sources` in order, skipping (without parsing) bodies whose SHA-256 is in `known`.
    init(_ sources: [IndexSource], known: Set<String>, lookahead: Int = 1) {
        self.lookahead = lookahead
        let thread = Thread { [self] in
            for source in sources {
                let item = Item(source: source, content: Self.read(source, known: known))
                condition.lock()
                readingSeconds = threadCPUSeconds()
                while ready.count >= lookahead && !stopped { condition.wait() }
                if stopped { condition.unlock(); return }
                ready.append(item)
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "quake-store source reader"
        thread.start()
    }

    /// The next source in order, waiting for it; `nil` after the last.
    func next() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !finished { condition.wait() }
        guard !ready.isEmpty else { return nil }
        condition.broadcast()
        return ready.removeFirst()
    }

    /// CPU seconds the reading thread has used so far (for diagnostics).
    var cpuSeconds: Double {
        condition.lock()
        defer { condition.unlock() }
        return readingSeconds
    }

    /// Stops reading ahead (the writer gave up).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private static func read(_ source: IndexSource, known: Set<String>) -> Content {
        if let sha256 = source.sha256, known.contains(sha256) { return .alreadyIndexed(sha256: sha256) }
        let data: Data
        do {
            data = try Data(contentsOf: source.file)
        } catch {
            return .unreadable("\(source.name): cannot read: \(describe(error))")
        }
        let body = (try? Gzip.decompressIfNeeded(data)) ?? data
        let sha256 = source.sha256 ?? SHA256.hex(body)
        if known.contains(sha256) { return .alreadyIndexed(sha256: sha256) }
        let page = CatalogFile.read(body, source: source.name)
        let excerpt = page.problem == nil ? "" : String(decoding: body.prefix(Reject.maximumRawLength), as: UTF8.self)
        return .read(sha256: sha256, page: page, excerpt: excerpt)
    }

    private static func describe(_ error: Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return error.localizedDescription
    }
}

/// CPU seconds the calling thread has used (for the debug log of where a run's time went).
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
