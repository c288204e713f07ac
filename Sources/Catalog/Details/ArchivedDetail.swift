import Foundation

/// One entry of the fetch archive's details, as `fetch` wrote it and `index` reads it: a
/// quake's detail answer with the content files fetched for it (or why each was left out),
/// or the note that a quake's details are no longer wanted (it stopped being significant, or
/// was deleted). Entries are applied in `sequence` order; a quake's newest one decides.
public struct ArchivedDetail: Sendable, Equatable {
    /// Arrival order in the archive.
    public var sequence: Int64
    /// The quake's id, as the page that asked for its details named it.
    public var eventID: String
    /// The `updated` of the event version the entry was made for (ms).
    public var updated: Int64
    /// When it was fetched (ISO 8601).
    public var fetchedAt: String
    /// The detail answer as received (gzip file); nil for a drop.
    public var file: URL?
    /// Why the quake's details were dropped; nil for a detail.
    public var dropReason: String?
    /// The content files, fetched or left out.
    public var contents: [Content]

    /// One content file: where it came from, and its archived file or why there is none.
    public struct Content: Sendable, Equatable {
        public var request: ContentRequest
        /// The file as received (gzip); nil when left out.
        public var file: URL?
        public var leftOutReason: String?

        public init(request: ContentRequest, file: URL?, leftOutReason: String?) {
            self.request = request
            self.file = file
            self.leftOutReason = leftOutReason
        }
    }

    public init(sequence: Int64, eventID: String, updated: Int64, fetchedAt: String, file: URL?, dropReason: String?, contents: [Content]) {
        self.sequence = sequence
        self.eventID = eventID
        self.updated = updated
        self.fetchedAt = fetchedAt
        self.file = file
        self.dropReason = dropReason
        self.contents = contents
    }

    /// Whether the entry drops the quake's details.
    public var isDrop: Bool { file == nil }
}
