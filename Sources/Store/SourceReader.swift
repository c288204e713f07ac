import Foundation
import QuakeCatalog
import QuakeCommon

/// Reads, hashes and parses sources on a background thread, ahead of the writer, so that
/// parsing and writing use both cores.
///
/// The writer sees exactly what reading on its own thread would give, in the same order:
/// each source (`nextSource()`), then that source's events in document order, in chunks as
/// they are parsed, then the rest of what was read (`nextPart()`). At most `lookahead`
/// chunks wait in the queue; a chunk holds `chunkSize` events, where a whole parsed page of
/// 20,000 would take some 25 MB. 1,000 events (about half a MB of array) stay below the
/// size glibc maps on its own (`FreedMemory`, 1 MB), so the arrays come from the heap and
/// are reused, instead of being mapped and faulted in afresh for every chunk (as arrays of
/// 2,000 were). The writer hands each chunk back when it
/// is done with it (`recycle`), and the events are freed here, on the reading thread: the
/// writer does not spend its time returning the reader's memory, and the two threads do
/// not contend for the allocator's lock.
final class SourceReader: @unchecked Sendable {
    /// One source, as the writer first meets it.
    enum Source {
        /// The file could not be read at all.
        case unreadable(IndexSource, message: String)
        /// The body's SHA-256 is in `sources` already, or (`earlierInRun`) it was the body of an
        /// earlier source of this run.
        case alreadyIndexed(IndexSource, earlierInRun: Bool)
        /// A source to store: its parts follow (`nextPart()`), the last being `.end`.
        case read(IndexSource, sha256: String)
    }

    /// What follows a `.read` source.
    enum Part {
        /// The next events of the source, in document order; hand the chunk back with `recycle`.
        case events(EventChunk)
        /// The source is complete.
        case end(SourceEnd)
    }

    private enum Item {
        case source(Source)
        case part(Part)
    }

    private let condition = NSCondition()
    private var queue: [Item] = []
    private var queuedChunks = 0
    private var spent: [EventChunk] = []
    private var finished = false
    private var stopped = false
    private var readingSeconds = 0.0
    private var waitingSeconds = 0.0

    /// Starts reading `sources` in order, skipping (without parsing) bodies whose SHA-256 is in
    /// `known` or was the body of an earlier source.
    init(_ sources: [IndexSource], known: Set<String>, chunkSize: Int = 1_000, lookahead: Int = 8) {
        let thread = Thread { [self] in
            var seen = known
            for source in sources {
                guard read(source, known: known, seen: &seen, chunkSize: chunkSize, lookahead: lookahead) else { return }
                releaseSpent()
                FreedMemory.release()
            }
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "quake-store source reader"
        thread.start()
    }

    /// The next source in order, waiting for it; `nil` after the last. After a `.read` source,
    /// its parts must be taken (`nextPart()`) up to its `.end` before the next source.
    func nextSource() -> Source? {
        switch take() {
        case .source(let source)?: return source
        case nil: return nil
        case .part?: preconditionFailure("a source's parts must be taken up to its end before the next source")
        }
    }

    /// The next part of the source last returned by `nextSource()`, waiting for it.
    func nextPart() -> Part {
        guard case .part(let part)? = take() else { preconditionFailure("parts follow a .read source, up to its end") }
        return part
    }

    /// Hands back a chunk the writer is done with; its events are freed on the reading thread.
    func recycle(_ chunk: EventChunk) {
        condition.lock()
        spent.append(chunk)
        condition.unlock()
    }

    /// CPU seconds the reading thread has used so far (for diagnostics).
    var cpuSeconds: Double {
        condition.lock()
        defer { condition.unlock() }
        return readingSeconds
    }

    /// Seconds the writer spent waiting for the reader (for diagnostics).
    var waitedSeconds: Double {
        condition.lock()
        defer { condition.unlock() }
        return waitingSeconds
    }

    /// Stops reading ahead (the writer gave up).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    // MARK: The reading thread

    /// Reads one source and queues what it holds. Returns false when the writer stopped the reader.
    private func read(_ source: IndexSource, known: Set<String>, seen: inout Set<String>, chunkSize: Int, lookahead: Int) -> Bool {
        if let sha256 = source.sha256, seen.contains(sha256) {
            return put(.source(.alreadyIndexed(source, earlierInRun: !known.contains(sha256))), lookahead: lookahead)
        }
        if source.sha256 == nil, let size = InputFile.regularFileSize(of: source.file), size >= source.streamedFrom {
            // Over the limit, it is not read at all (hashing it first took minutes at hundreds of GB).
            guard size <= source.maxBytes else {
                return put(.source(.unreadable(source, message: InputFile.overLimit(source.file.path, size: size, maxBytes: source.maxBytes))),
                           lookahead: lookahead)
            }
            return stream(source, known: known, seen: &seen, chunkSize: chunkSize, lookahead: lookahead)
        }
        var data = Data()
        do {
            if source.sha256 == nil, InputFile.isPipe(source.file) {
                switch try InputFile.readPipe(source.file, wholeUpTo: source.streamedFrom, maxBytes: source.maxBytes) {
                case .whole(let bytes): data = bytes
                case .spooled(let scratch):
                    defer { try? FileManager.default.removeItem(at: scratch) }
                    var spooled = IndexSource(name: source.name, file: scratch, kind: source.kind, sha256: nil, expectedEvents: nil)
                    spooled.maxBytes = source.maxBytes
                    return stream(spooled, known: known, seen: &seen, chunkSize: chunkSize, lookahead: lookahead)
                }
            } else {
                data = try InputFile.bytes(of: source.file, maxBytes: source.maxBytes)
            }
        } catch {
            return put(.source(.unreadable(source, message: error.description)), lookahead: lookahead)
        }
        let body = InputFile.body(of: data, maxBytes: source.maxBytes)
        // Damaged gzip counts by its bytes as stored: the same text may come whole in a sound file later.
        let sha256 = source.sha256 ?? (body.damage == nil ? SHA256.hex(body.text) : SHA256.hex(data))
        if seen.contains(sha256) {
            return put(.source(.alreadyIndexed(source, earlierInRun: !known.contains(sha256))), lookahead: lookahead)
        }
        seen.insert(sha256)
        guard put(.source(.read(source, sha256: sha256)), lookahead: lookahead) else { return false }
        var going = true
        // The text, plain now (nothing is inflated twice); gzip damage is named after what came before it is read.
        var page = CatalogFile.read(body.text, source: source.name, chunkSize: chunkSize) { events in
            if going { going = put(.part(.events(EventChunk(events))), lookahead: lookahead) }
        }
        if let damage = body.damage { page.problem = "\(source.name): \(damage)" }
        if going && !page.events.isEmpty { going = put(.part(.events(EventChunk(page.events))), lookahead: lookahead) }
        let excerpt = page.problem == nil ? "" : String(decoding: body.text.prefix(Reject.maximumRawLength), as: UTF8.self)
        return going && put(.part(.end(SourceEnd(rejects: page.rejects, problem: page.problem, excerpt: excerpt))), lookahead: lookahead)
    }

    /// Reads a big file a piece at a time (`CatalogStream`): never whole in memory.
    private func stream(_ source: IndexSource, known: Set<String>, seen: inout Set<String>, chunkSize: Int, lookahead: Int) -> Bool {
        let sha256: String
        do {
            sha256 = try SHA256.hex(fileAt: source.file)
        } catch {
            return put(.source(.unreadable(source, message: "\(source.file.path): cannot read: \(error)")), lookahead: lookahead)
        }
        if seen.contains(sha256) {
            return put(.source(.alreadyIndexed(source, earlierInRun: !known.contains(sha256))), lookahead: lookahead)
        }
        seen.insert(sha256)
        guard put(.source(.read(source, sha256: sha256)), lookahead: lookahead) else { return false }
        var going = true, chunks = 0
        let page = CatalogStream.read(source.file, source: source.name, maxBytes: source.maxBytes, chunkSize: chunkSize) { events in
            if going { going = put(.part(.events(EventChunk(events))), lookahead: lookahead) }
            // A big file is one source: what its pieces freed goes back to the system as it is read.
            chunks += 1
            if chunks % 64 == 0 { FreedMemory.release() }
        }
        if going && !page.events.isEmpty { going = put(.part(.events(EventChunk(page.events))), lookahead: lookahead) }
        let excerpt = page.problem == nil ? "" : Self.excerpt(of: source.file)
        return going && put(.part(.end(SourceEnd(rejects: page.rejects, problem: page.problem, excerpt: excerpt))), lookahead: lookahead)
    }

    /// The start of a file's text (decompressed when gzip), for a damaged file's record.
    private static func excerpt(of url: URL) -> String {
        guard let handle = try? FileHandle(forReadingFrom: url), let head = try? handle.read(upToCount: 1 << 16) else { return "" }
        try? handle.close()
        guard Gzip.isCompressed(head) else { return String(decoding: head.prefix(Reject.maximumRawLength), as: UTF8.self) }
        guard let gzip = try? Gzip.Decompressor() else { return "" }
        gzip.feed(head)
        var text = [UInt8](repeating: 0, count: Reject.maximumRawLength)
        let count = text.withUnsafeMutableBytes { (try? gzip.read(into: $0)) ?? 0 }
        return String(decoding: text.prefix(count), as: UTF8.self)
    }

    /// Queues `item`, waiting while `lookahead` chunks wait already; false when stopped.
    private func put(_ item: Item, lookahead: Int) -> Bool {
        releaseSpent()
        let cpu = threadCPUSeconds()
        condition.lock()
        defer { condition.unlock() }
        readingSeconds = cpu
        let isChunk = if case .part(.events) = item { true } else { false }
        while isChunk && queuedChunks >= lookahead && !stopped { condition.wait() }
        guard !stopped else { return false }
        queue.append(item)
        if isChunk { queuedChunks += 1 }
        condition.broadcast()
        return true
    }

    /// Frees the events of the chunks the writer handed back.
    private func releaseSpent() {
        condition.lock()
        let chunks = spent
        spent = []
        condition.unlock()
        for chunk in chunks { chunk.events = [] }
    }

    // MARK: The writer's side

    private func take() -> Item? {
        let start = Date()
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !finished { condition.wait() }
        waitingSeconds += Date().timeIntervalSince(start)
        guard !queue.isEmpty else { return nil }
        let item = queue.removeFirst()
        if case .part(.events) = item { queuedChunks -= 1 }
        condition.broadcast()
        return item
    }
}

/// Events handed from the reader to the writer. The writer reads them in place (it keeps no
/// copy of the array) and hands the chunk back, so that the reader is the one to free them.
final class EventChunk: @unchecked Sendable {
    fileprivate(set) var events: [QuakeEvent]

    fileprivate init(_ events: [QuakeEvent]) {
        self.events = events
    }
}

/// What a source read holds after its events.
struct SourceEnd {
    let rejects: RejectList
    /// Damage to the document as a whole, or a service error.
    let problem: String?
    /// The start of the body, kept for a whole-document reject when `problem` is set.
    let excerpt: String
}

/// CPU seconds the calling thread has used (for the debug log of where a run's time went).
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
