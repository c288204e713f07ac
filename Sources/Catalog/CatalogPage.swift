/// What one page or file held: the events that passed validation, and everything
/// else with a reason, so that nothing is dropped silently.
public struct CatalogPage: Sendable {
    /// Valid events, in document order.
    public var events: [QuakeEvent] = []
    /// Items that could not be read as events (all counted, the first thousand kept whole).
    public var rejects: RejectList = []
    /// The FDSN `metadata` block, when the document has one.
    public var metadata: PageMetadata?
    /// Set when the document as a whole is damaged or is a service error.
    /// Events read before the damage are still in `events`.
    public var problem: String?
    /// For a piece of a streamed FeatureCollection (`GeoJSONReader.read(body:…partial:)`): the
    /// offset where the feature left for the next piece starts; nil once the features array ended.
    var unread: Int?
    /// For a piece of a streamed FeatureCollection whose features array ended in it: the offset
    /// of the array's `]`, where the rest of the document starts.
    var rest: Int?

    public init(events: [QuakeEvent] = [], rejects: RejectList = [], metadata: PageMetadata? = nil, problem: String? = nil) {
        self.events = events
        self.rejects = rejects
        self.metadata = metadata
        self.problem = problem
    }
}

/// An item that could not be stored, with where it was and why.
public struct Reject: Error, Sendable, Hashable {
    /// Where in its source, e.g. `feature 12 (byte 3456)` or `line 7`.
    public var position: String
    /// Why, in words.
    public var reason: String
    /// The item's raw text (long texts are cut, see `Reject.maximumRawLength`).
    public var raw: String

    /// The reason without the values it quotes (numbers, and the text in parentheses and in
    /// quotes), so that rejects for one cause count together: `time is not a valid time (…)`,
    /// `mag … is outside the plausible range -5.0…10.0`. Worked out on the reason's bytes (its
    /// delimiters are ASCII), a word parsed as a number only when it can be one: every reject
    /// of a file comes through here, and a file of 150,000 broken features, each at its own
    /// byte, once spent most of its reading on this (found by Scripts/fuzz geojson).
    public var kind: String {
        var kind: [UInt8] = []
        kind.reserveCapacity(reason.utf8.count)
        var depth = 0, quoted = false, word = 0
        /// Ends the word that starts at `word`: `…` for a number.
        func endWord() {
            guard let first = kind.dropFirst(word).first, Self.mayStartNumber(first),
                  Double(String(decoding: kind[word...], as: UTF8.self)) != nil else { return }
            kind.replaceSubrange(word..., with: "…".utf8)
        }
        for byte in reason.utf8 {
            switch byte {
            case UInt8(ascii: "(") where !quoted:
                if depth == 0 { kind += "(…".utf8 }
                depth += 1
            case UInt8(ascii: ")") where !quoted && depth > 0:
                depth -= 1
                if depth == 0 { kind.append(byte) }
            case UInt8(ascii: "\"") where depth == 0:
                quoted.toggle()
                if quoted { kind += "\"…\"".utf8 }
            case UInt8(ascii: " ") where depth == 0 && !quoted:
                endWord()
                kind.append(byte)
                word = kind.count
            default:
                if depth == 0 && !quoted { kind.append(byte) }
            }
        }
        endWord()
        return String(decoding: kind, as: UTF8.self)
    }

    /// Whether a word starting with `byte` can be a number to `Double(_:)`: a digit, a sign, a
    /// point, `inf`/`infinity` or `nan` in any case.
    private static func mayStartNumber(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || [UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "i"), UInt8(ascii: "I"),
                                         UInt8(ascii: "n"), UInt8(ascii: "N")].contains(byte)
    }

    /// Raw text longer than this is cut and marked, so one huge item cannot bloat the store.
    public static let maximumRawLength = 16_384

    public init(position: String, reason: String, raw: String) {
        self.position = position
        self.reason = reason
        if raw.utf8.count > Self.maximumRawLength {
            let head = String(decoding: raw.utf8.prefix(Self.maximumRawLength), as: UTF8.self)
            self.raw = head + "… [cut: \(raw.utf8.count) bytes in all]"
        } else {
            self.raw = raw
        }
    }
}

/// The `metadata` block of an FDSN GeoJSON answer.
public struct PageMetadata: Sendable, Hashable {
    public var generated: Int64?
    public var url: String?
    public var title: String?
    /// HTTP-like status; anything but 200 means the answer is an error (even on HTTP 200).
    public var status: Int?
    public var api: String?
    public var count: Int?
    public var limit: Int?
    public var offset: Int?
    /// The service's error text, when `status` is an error.
    public var error: String?

    public init(generated: Int64? = nil, url: String? = nil, title: String? = nil, status: Int? = nil,
                api: String? = nil, count: Int? = nil, limit: Int? = nil, offset: Int? = nil, error: String? = nil) {
        self.generated = generated
        self.url = url
        self.title = title
        self.status = status
        self.api = api
        self.count = count
        self.limit = limit
        self.offset = offset
        self.error = error
    }
}
