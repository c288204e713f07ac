import Foundation

/// A USGS event detail answer (`query?eventid=ID&format=geojson`) as far as quake-bake reads
/// it: the event's ids and `updated`, and every version of every product (ShakeMap, PAGER,
/// DYFI, moment tensor, …) with its properties and content files.
///
/// The service lists products by type, each type a list of versions (`properties` are
/// strings; `contents` maps a file's path in its product to its URL, or to its text inline).
/// Anything a version lacks or gives in another shape is left out of that version; an
/// answer that is not a Feature with `properties.products` is not a detail (`parse` says why).
public struct DetailDocument: Sendable, Equatable {
    /// The event's preferred id (the Feature's `id`).
    public var id: String
    /// Every id of the event (`properties.ids`), the preferred one included.
    public var ids: [String]
    /// The event's `updated` (ms), when given: it moves whenever a product changes.
    public var updated: Int64?
    /// Every product version, in the order the answer lists them.
    public var products: [ProductVersion]

    /// The most product versions read from one answer (a real one lists a few hundred even with
    /// every superseded version; one of Tōhoku's lists 118).
    public static let maximumVersions = 20_000

    /// The preferred version of the products of `type`: the highest `preferredWeight`, then the
    /// newest `updateTime` (USGS's own rule); deleted versions never are.
    public func preferred(_ type: String) -> ProductVersion? {
        products.filter { $0.type == type && !$0.isDeleted }.max { a, b in
            a.preferredWeight != b.preferredWeight ? a.preferredWeight < b.preferredWeight : a.updateTime < b.updateTime
        }
    }

    /// The versions of `type` that are not deleted.
    public func versions(_ type: String) -> [ProductVersion] {
        products.filter { $0.type == type && !$0.isDeleted }
    }

    /// Reads a detail answer; throws a `DetailError` saying what it is not.
    public static func parse(_ data: Data) throws -> DetailDocument {
        guard let root = JSON.parse(data) else { throw DetailError("the detail answer is not JSON") }
        guard case .object = root, root["type"] == .string("Feature") else {
            throw DetailError("the detail answer is not a GeoJSON Feature")
        }
        guard case .string(let id)? = root["id"], !id.isEmpty, let properties = root["properties"],
              case .object(let types)? = properties["products"] else {
            throw DetailError("the detail answer has no id or no properties.products")
        }
        var document = DetailDocument(id: id, ids: [id], updated: nil, products: [])
        if case .string(let list)? = properties["ids"] {
            document.ids = CommaList.parse(list)
            if !document.ids.contains(id) { document.ids.insert(id, at: 0) }
        }
        document.updated = properties["updated"]?.number.flatMap { $0.isFinite && $0 == $0.rounded() && abs($0) < 1e17 ? Int64($0) : nil }
        for (type, versions) in types {
            guard case .array(let items) = versions else { continue }
            for item in items {
                guard document.products.count < maximumVersions else { throw DetailError("the detail answer lists more than \(maximumVersions) product versions") }
                if let version = ProductVersion(type: type, item) { document.products.append(version) }
            }
        }
        return document
    }
}

/// One version of one product of a detail answer.
public struct ProductVersion: Sendable, Equatable {
    public var type: String
    public var code: String
    public var source: String
    /// ms since 1970.
    public var updateTime: Int64
    public var preferredWeight: Double
    /// `UPDATE`, or `DELETE` for a product withdrawn.
    public var status: String
    /// The product's properties, as the service gives them (text).
    public var properties: [String: String]
    /// The product's files by their path in the product (`download/stationlist.json`), the
    /// empty path for the product's own text.
    public var contents: [String: ProductContent]

    public var isDeleted: Bool { status.uppercased() == "DELETE" }

    /// The property `name` as a number, when it is one (USGS writes numbers as text: `"8.541"`, `"1.01E+19"`).
    public func number(_ name: String) -> Double? {
        properties[name].flatMap(ProductVersion.number)
    }

    /// A property text as a number: finite decimal notation only.
    static func number(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ "0123456789+-.eE".utf8.contains($0) }), let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    init?(type: String, _ json: JSON) {
        guard case .object = json, case .string(let code)? = json["code"], case .string(let source)? = json["source"],
              let updateTime = json["updateTime"]?.number, updateTime.isFinite, abs(updateTime) < 1e17 else { return nil }
        self.type = type
        self.code = code
        self.source = source
        self.updateTime = Int64(updateTime)
        preferredWeight = json["preferredWeight"]?.number ?? 0
        if case .string(let status)? = json["status"] { self.status = status } else { status = "UPDATE" }
        properties = [:]
        if case .object(let members)? = json["properties"] {
            for (name, value) in members {
                switch value {
                case .string(let text): properties[name] = text
                case .double(let number): properties[name] = JSONText.number(number)
                case .int(let number): properties[name] = String(number)
                default: break
                }
            }
        }
        contents = [:]
        // An object of files; a product without files has `[]` (the service's PHP heritage).
        if case .object(let files)? = json["contents"] {
            for (path, file) in files {
                guard case .object = file else { continue }
                var content = ProductContent()
                if case .string(let url)? = file["url"] { content.url = url }
                if case .string(let text)? = file["bytes"] { content.text = text }
                if case .string(let type)? = file["contentType"] { content.contentType = type }
                content.length = file["length"]?.number.flatMap { $0 >= 0 && $0 < 1e15 ? Int($0) : nil }
                contents[path] = content
            }
        }
    }
}

/// One file of a product version: where it is, or its text when the answer carries it inline.
public struct ProductContent: Sendable, Equatable {
    public var url: String?
    /// The file's text, when the answer carries it (`bytes`: a product's own text).
    public var text: String?
    public var contentType: String?
    /// Its size in bytes, as the answer says.
    public var length: Int?

    public init(url: String? = nil, text: String? = nil, contentType: String? = nil, length: Int? = nil) {
        self.url = url
        self.text = text
        self.contentType = contentType
        self.length = length
    }
}

/// What is wrong with a detail answer or one of its files.
public struct DetailError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
