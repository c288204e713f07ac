import Foundation
import QuakeCommon

/// One fault-injection rule: what goes wrong, on which requests, and when.
///
/// Spec syntax (startup `--fault SPEC` or `POST /admin/faults`):
/// `KIND[=ARG][,KEY=VALUE]…`, for example `503,next=2`, `429=30,every=5,on=query`,
/// `disconnect,rate=0.1,seed=7`, `wrongcount=-3,next=1`.
///
/// Kinds: `503`; `429[=RETRY_AFTER_S]` (default 1); `stall[=S]` (default 30);
/// `disconnect`; `truncate`; `error200[=STATUS]` (default 400); `proxy[=STATUS]`
/// (default 502); `wrongcount[=DELTA]` (default +1, count requests only); `damage` (the first
/// feature of a query answer gets latitude 91; query requests only); `outside` (the first
/// feature of a query answer gets origin time 0, outside the window asked for; query only).
/// Hostile ones, a client must cut off by its own limits (query requests only unless said):
/// `endless` (a body that never ends), `big[=MB]` (default 2048), `drip[=BYTES_PER_S]` (the
/// true answer, default 1 byte a second), `gzipbomb[=MB]` (gzip inflating to MB of zeros,
/// default 1024), `badcount=TEXT` (the count answer says `TEXT`: `1e12`, `-1`, `"many"`;
/// count requests only), `badcap=TEXT` (the count answer's `maxAllowed` says `TEXT`: `0`, `-5`;
/// count requests only). The hostile bodies apply to `detail` and `product` requests too, with
/// `on=`. Lying and wandering ones: `short[=N]` (a query answer without its last
/// N features, default half of them, nothing else changed: a service that cuts pages short
/// without saying so); `feature` (a query answer that is its first feature alone, not a
/// FeatureCollection); `sameid` (every feature of a query answer gets the first one's id);
/// `bigheader[=KB]` (the true answer with one header line of KB kilobytes, default 1024);
/// `manyheaders[=N]` (the true answer with N more short header lines, default 50,000);
/// `redirect[=BASE]` (302 to BASE followed by the request's path and query;
/// without BASE, to the request itself: followed forever, a loop).
/// Triggers: `next=N` (the next N requests; the default is `next=1`), `every=K`
/// (every Kth), `rate=P` with optional `seed=S` (default 1). `after=M` lets the first
/// M matching requests through first. `on=query|count|detail|product|any` limits the rule
/// (default: query and count; `detail` is one event's detail answer, `query?eventid=`, and
/// `product` a product file, `/product/…`).
struct FaultRule: Sendable {
    let spec: String
    let kind: FaultKind
    let trigger: Trigger
    let endpoints: Set<String>
    let after: Int
    private(set) var seen = 0
    private(set) var fired = 0
    private var generator: SeededGenerator

    enum Trigger: Sendable, Equatable {
        case next(Int)
        case every(Int)
        case rate(Double)
    }

    /// The FDSN methods a rule watches unless `on=` says otherwise.
    static let defaultEndpoints: Set<String> = ["query", "count"]
    /// Every kind of request a rule can watch: `detail` is one event's detail answer
    /// (`query?eventid=`), `product` a product file (`/product/…`).
    static let allEndpoints: Set<String> = ["query", "count", "detail", "product"]
    /// The requests whose answer has a body a hostile kind can replace.
    static let bodyEndpoints: Set<String> = ["query", "detail", "product"]

    /// Parses a spec; throws a message naming the spec and what is wrong with it.
    init(spec: String) throws(FaultSpecError) {
        self.spec = spec
        let fields = spec.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let (kindName, argument) = Self.split(fields[0])
        func fail(_ reason: String) -> FaultSpecError { FaultSpecError(description: "bad fault \"\(spec)\": \(reason)") }
        func int(_ text: String?, default value: Int, _ range: ClosedRange<Int>, _ what: String) throws(FaultSpecError) -> Int {
            guard let text else { return value }
            guard let parsed = Int(text), range.contains(parsed) else { throw fail("\(what) must be a whole number in \(range.lowerBound)…\(range.upperBound)") }
            return parsed
        }
        switch kindName {
        case "503": kind = .unavailable
        case "429": kind = .throttled(retryAfter: try int(argument, default: 1, 0...86_400, "Retry-After"))
        case "stall":
            guard let seconds = Double(argument ?? "30"), seconds >= 0, seconds <= 3_000 else { throw fail("stall seconds must be in 0…3000") }
            kind = .stall(seconds: seconds)
        case "disconnect": kind = .disconnect
        case "truncate": kind = .truncate
        case "error200": kind = .errorInBody(status: try int(argument, default: 400, 100...599, "status"))
        case "proxy": kind = .proxyPage(status: try int(argument, default: 502, 100...599, "status"))
        case "damage": kind = .damagedFeature
        case "outside": kind = .outsideFeature
        case "endless": kind = .hostileBody(.endless)
        case "big": kind = .hostileBody(.big(bytes: try int(argument, default: 2048, 1...65_536, "size in MB") << 20))
        case "drip": kind = .drip(bytesPerSecond: try int(argument, default: 1, 1...1 << 20, "bytes per second"))
        case "gzipbomb": kind = .gzipBomb(megabytes: try int(argument, default: 1024, 1...16_384, "size in MB"))
        case "badcount":
            guard let argument, !argument.isEmpty else { throw fail("badcount needs the text the count answer should say") }
            kind = .badCount(argument)
        case "badcap":
            guard let argument, !argument.isEmpty else { throw fail("badcap needs the text maxAllowed should say") }
            kind = .badCap(argument)
        case "short":
            kind = .shortPage(dropping: argument == nil ? nil : try int(argument, default: 1, 1...1_000_000, "features to drop"))
        case "feature": kind = .featureOnly
        case "sameid": kind = .repeatedID
        case "bigheader": kind = .bigHeader(kilobytes: try int(argument, default: 1024, 1...65_536, "header size in KB"))
        case "manyheaders": kind = .manyHeaders(lines: try int(argument, default: 50_000, 1...1_000_000, "header lines"))
        case "redirect":
            guard argument.map({ URL(string: $0)?.host != nil }) ?? true else { throw fail("redirect needs an absolute URL (http://host:port)") }
            kind = .redirect(base: argument)
        case "wrongcount":
            let delta = try int(argument.map { $0.hasPrefix("+") ? String($0.dropFirst()) : $0 }, default: 1, -1_000_000...1_000_000, "count delta")
            guard delta != 0 else { throw fail("count delta must not be 0") }
            kind = .wrongCount(delta: delta)
        default:
            throw fail("unknown kind \"\(kindName)\"; kinds: 503, 429, stall, disconnect, truncate, error200, proxy, wrongcount, damage, outside, "
                       + "endless, big, drip, gzipbomb, badcount, badcap, short, feature, sameid, bigheader, manyheaders, redirect")
        }
        var trigger: Trigger?
        var endpoints = kind.isCountOnly ? ["count"] : (kind.isQueryOnly || kind.needsBody ? ["query"] : Self.defaultEndpoints)
        var after = 0
        var seed: UInt64 = 1
        for field in fields.dropFirst() {
            let (key, value) = Self.split(field)
            guard let value else { throw fail("\"\(field)\" is not KEY=VALUE") }
            switch key {
            case "next": trigger = .next(try int(value, default: 1, 1...Int.max, "next"))
            case "every": trigger = .every(try int(value, default: 1, 1...Int.max, "every"))
            case "rate":
                guard let rate = Double(value), (0...1).contains(rate) else { throw fail("rate must be a number in 0…1") }
                trigger = .rate(rate)
            case "seed":
                guard let parsed = UInt64(value) else { throw fail("seed must be a whole number ≥ 0") }
                seed = parsed
            case "after": after = try int(value, default: 0, 0...Int.max, "after")
            case "on":
                switch value {
                case "query", "count", "detail", "product": endpoints = [value]
                case "any": endpoints = kind.isCountOnly ? ["count"] : kind.isQueryOnly ? ["query"] : kind.needsBody ? Self.bodyEndpoints : Self.allEndpoints
                default: throw fail("on must be query, count, detail, product or any")
                }
                if kind.isCountOnly && endpoints != ["count"] { throw fail("\(kind.name) applies to count requests only") }
                if kind.isQueryOnly && endpoints != ["query"] { throw fail("\(kind.name) applies to query requests only") }
                if kind.needsBody && !endpoints.isSubset(of: Self.bodyEndpoints) { throw fail("\(kind.name) applies to query, detail or product requests only") }
            default: throw fail("unknown key \"\(key)\"; keys: next, every, rate, seed, after, on")
            }
        }
        self.trigger = trigger ?? .next(1)
        self.endpoints = endpoints
        self.after = after
        self.generator = SeededGenerator(seed: seed)
    }

    /// Counts a request to `endpoint` and says whether the rule fires on it.
    mutating func fires(on endpoint: String) -> Bool {
        guard endpoints.contains(endpoint) else { return false }
        seen += 1
        guard seen > after else { return false }
        let fire: Bool
        switch trigger {
        case .next(let n): fire = fired < n
        case .every(let k): fire = (seen - after) % k == 0
        case .rate(let p): fire = generator.nextUnit() < p
        }
        if fire { fired += 1 }
        return fire
    }

    private static func split(_ field: String) -> (String, String?) {
        guard let equals = field.firstIndex(of: "=") else { return (field, nil) }
        return (String(field[..<equals]), String(field[field.index(after: equals)...]))
    }
}

/// A fault spec that cannot be used, with the reason.
struct FaultSpecError: Error, CustomStringConvertible, Sendable {
    let description: String
}

/// What an injected fault does to one answer.
enum FaultKind: Sendable, Equatable {
    /// The service's plain-text 503 page.
    case unavailable
    /// 429 with `Retry-After`.
    case throttled(retryAfter: Int)
    /// Waits this long, then answers normally.
    case stall(seconds: Double)
    /// Headers with the full Content-Length, half the body, then the connection closes.
    case disconnect
    /// HTTP 200 whose body is cut in half; Content-Length matches the cut body.
    case truncate
    /// HTTP 200 carrying an error in `metadata.status` (jsonerror style).
    case errorInBody(status: Int)
    /// An HTML error page from a front-end proxy.
    case proxyPage(status: Int)
    /// The `count` answer is off by `delta`; later answers are true.
    case wrongCount(delta: Int)
    /// A query answer whose first feature has latitude 91, as a damaged catalog row would give.
    case damagedFeature
    /// A query answer whose first feature has origin time 0 (1970-01-01), outside any window
    /// a client asked for: a service that answers more than was asked.
    case outsideFeature
    /// A body that never ends, or is huge (generated as it is sent).
    case hostileBody(HostileBody)
    /// The true answer, fed this many bytes a second.
    case drip(bytesPerSecond: Int)
    /// A gzip-encoded answer inflating to this many MB of zeros.
    case gzipBomb(megabytes: Int)
    /// The count answer says this text instead of a number.
    case badCount(String)
    /// The count answer's `maxAllowed` says this text instead of the cap.
    case badCap(String)
    /// A query answer without its last `dropping` features (nil: half), otherwise unchanged.
    case shortPage(dropping: Int?)
    /// A query answer that is its first feature alone instead of a FeatureCollection.
    case featureOnly
    /// A query answer whose features all carry the first one's id.
    case repeatedID
    /// The true answer with one header line of this many kilobytes.
    case bigHeader(kilobytes: Int)
    /// The true answer with this many more header lines (`X-Padding-1: a` …).
    case manyHeaders(lines: Int)
    /// 302 to `base` + the request's path and query (nil: to the request itself).
    case redirect(base: String?)

    var isCountOnly: Bool {
        switch self {
        case .wrongCount, .badCount, .badCap: true
        default: false
        }
    }

    /// Kinds that change the features of a FeatureCollection: `query` requests only.
    var isQueryOnly: Bool {
        switch self {
        case .damagedFeature, .outsideFeature, .shortPage, .featureOnly, .repeatedID: true
        default: false
        }
    }

    /// Kinds that replace a body: `query` requests unless `on=detail` or `on=product` says otherwise.
    var needsBody: Bool {
        switch self {
        case .hostileBody, .drip, .gzipBomb: true
        default: false
        }
    }

    /// Short name for the request log: `503`, `429`, `stall`, …
    var name: String {
        switch self {
        case .unavailable: "503"
        case .throttled: "429"
        case .stall: "stall"
        case .disconnect: "disconnect"
        case .truncate: "truncate"
        case .errorInBody: "error200"
        case .proxyPage: "proxy"
        case .wrongCount: "wrongcount"
        case .damagedFeature: "damage"
        case .outsideFeature: "outside"
        case .hostileBody(.endless): "endless"
        case .hostileBody: "big"
        case .drip: "drip"
        case .gzipBomb: "gzipbomb"
        case .badCount: "badcount"
        case .badCap: "badcap"
        case .shortPage: "short"
        case .featureOnly: "feature"
        case .repeatedID: "sameid"
        case .bigHeader: "bigheader"
        case .manyHeaders: "manyheaders"
        case .redirect: "redirect"
        }
    }
}
