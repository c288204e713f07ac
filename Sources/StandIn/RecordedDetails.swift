import Foundation
import QuakeCatalog
import QuakeCommon

/// The products the stand-in's detail answers (`query?eventid=`) list, and the product files
/// it serves under `/product/`: recorded USGS detail answers (`--details DIR`: `DIR/events/*.geojson[.gz]`
/// and `DIR/product/PATH[.gz]`, the layout of `data/usgs/detail`), and those the admin interface adds.
///
/// A served event whose ids meet a recorded answer's gets that answer's products; any other
/// gets one `origin` product made from the event, as a quake with no other product has.
struct RecordedDetails: Sendable {
    /// The recorded answers' products, each as one `properties.products` object.
    private var products: [JSON] = []
    /// Every id of every recorded answer → its products (the last one added, for an id two share).
    private var byID: [String: Int] = [:]
    /// Product files the admin interface added, by their path below `/product/`.
    private var files: [String: Data] = [:]
    /// Where recorded product files are, when loaded from a directory.
    private let directory: URL?

    /// The host recorded content URLs name; the stand-in answers with its own instead.
    static let usgsProducts = "https://earthquake.usgs.gov/product/"

    /// How many recorded answers are served.
    var count: Int { products.count }

    init(directory: URL? = nil) { self.directory = directory }

    /// Loads every `events/*.geojson[.gz]` of `directory`; product files are read from it when asked for.
    static func load(_ directory: URL) throws -> RecordedDetails {
        var details = RecordedDetails(directory: directory)
        let events = directory.appendingPathComponent("events")
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: events.path).filter { $0.hasSuffix(".geojson") || $0.hasSuffix(".geojson.gz") }.sorted()
        } catch {
            throw QuakeBakeError("--details \(directory.path): no events/ directory of recorded detail answers (\(ErrorText.message(error)))", exitStatus: .usage)
        }
        for name in names {
            let file = events.appendingPathComponent(name)
            do {
                try details.add(try Gzip.decompressIfNeeded(try Data(contentsOf: file), limit: 64 << 20))
            } catch {
                throw QuakeBakeError("--details: \(file.path): \(ErrorText.message(error))")
            }
        }
        return details
    }

    /// Serves the products of `body`, a detail answer (a Feature with `properties.products`) or
    /// a FeatureCollection of them, for each one's ids. Nothing is added when one is not.
    mutating func add(_ body: Data) throws(DetailError) {
        guard let root = JSON.parse(body) else { throw DetailError("not JSON") }
        let features: [JSON]
        if case .array(let list)? = root["features"] { features = list } else { features = [root] }
        var added: [(ids: [String], products: JSON)] = []
        for feature in features {
            guard case .string(let id)? = feature["id"], let products = feature["properties"]?["products"], case .object = products else {
                throw DetailError("not a detail answer: a Feature with an id and properties.products")
            }
            var ids = [id]
            if case .string(let list)? = feature["properties"]?["ids"] { ids += CommaList.parse(list) }
            added.append((ids, products))
        }
        for (ids, products) in added {
            self.products.append(products)
            for id in ids { byID[id] = self.products.count - 1 }
        }
    }

    /// Serves `data` at `/product/PATH`.
    mutating func addFile(_ data: Data, at path: String) throws(DetailError) {
        guard Self.isSafe(path) else { throw DetailError("\"\(path)\" is not a product file path (TYPE/CODE/SOURCE/TIME/NAME…)") }
        files[path] = data
    }

    /// The `properties.products` text of the detail answer for `event`: its recorded products
    /// (only each product's newest version unless `includeSuperseded`, as the service does), with
    /// their content URLs on this stand-in (`base`: `http://HOST/product/`); else an origin product.
    func productsText(for event: QuakeEvent, base: String, includeSuperseded: Bool) -> String {
        guard let index = event.allIds.lazy.compactMap({ byID[$0] }).first else { return Self.origin(of: event).text }
        let listed = includeSuperseded ? products[index] : Self.newestVersions(products[index])
        return listed.text.replacingOccurrences(of: Self.usgsProducts, with: base)
    }

    /// The file at `path` below `/product/`: added by the admin interface, else recorded (gzip or plain).
    func file(at path: String) -> Data? {
        guard Self.isSafe(path) else { return nil }
        if let added = files[path] { return added }
        guard let directory else { return nil }
        let recorded = directory.appendingPathComponent("product").appendingPathComponent(path)
        if let gzip = try? Data(contentsOf: recorded.appendingPathExtension("gz")) { return try? Gzip.decompress(gzip, limit: 256 << 20) }
        return try? Data(contentsOf: recorded)
    }

    /// A path of plain components (no `.`, `..` or empty ones), below `/product/`.
    static func isSafe(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count >= 2 && path.count <= 1024 && parts.allSatisfy { part in
            !part.isEmpty && part != "." && part != ".." && part.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || "._-+()".unicodeScalars.contains($0)
            }
        }
    }

    /// `products` with only the newest version of each (type, source, code), as the service lists
    /// them without `includesuperseded`.
    static func newestVersions(_ products: JSON) -> JSON {
        guard case .object(let types) = products else { return products }
        return .object(types.map { type, versions in
            guard case .array(let items) = versions else { return (type, versions) }
            var newest: [String: Double] = [:]
            for item in items {
                let key = identity(item)
                newest[key] = max(newest[key] ?? -.infinity, item["updateTime"]?.number ?? 0)
            }
            var seen: Set<String> = []
            return (type, .array(items.filter { item in
                let key = identity(item)
                return item["updateTime"]?.number ?? 0 == newest[key] && seen.insert(key).inserted
            }))
        })
    }

    private static func identity(_ item: JSON) -> String {
        func text(_ name: String) -> String { if case .string(let s)? = item[name] { return s } else { return "" } }
        return text("source") + "\u{1}" + text("code")
    }

    /// The `origin` product of a quake that has no other: its location, time, magnitude and status.
    static func origin(of event: QuakeEvent) -> JSON {
        let source = event.net ?? "us", time = event.updated
        var properties: [(String, JSON)] = [("eventsource", .string(source)), ("eventsourcecode", .string(event.code ?? event.id))]
        func add(_ name: String, _ value: Double?) { if let value { properties.append((name, .string(JSONText.number(value)))) } }
        add("latitude", event.latitude)
        add("longitude", event.longitude)
        add("depth", event.depthKm)
        add("magnitude", event.mag)
        if let type = event.magType { properties.append(("magnitude-type", .string(type))) }
        if let origin = event.time { properties.append(("eventtime", .string(ISOTime.format(milliseconds: origin)))) }
        if let status = event.status { properties.append(("review-status", .string(status))) }
        let version: JSON = .object([
            ("id", .string("urn:usgs-product:\(source):origin:\(event.id):\(time)")), ("type", .string("origin")),
            ("code", .string(event.id)), ("source", .string(source)), ("updateTime", .int(time)), ("status", .string("UPDATE")),
            ("properties", .object(properties)), ("preferredWeight", .int(1)), ("contents", .object([])),
        ])
        return .object([("origin", .array([version]))])
    }
}
