import Foundation
import QuakeCatalog

/// The FDSN methods under `/fdsnws/event/1/`.
enum FDSNEndpoint: String, Sendable {
    case query, count, version, catalogs, contributors
    case applicationJSON = "application.json"
    /// Anything else under the base: the documentation page.
    case docs

    /// The method named by the path below the base, and the format its extension implies
    /// (`query.geojson` = `query?format=geojson`).
    static func parse(_ name: String) -> (FDSNEndpoint, format: String?) {
        for format in ["geojson", "csv"] where name == "query.\(format)" || name == "count.\(format)" {
            return (name.hasPrefix("query") ? .query : .count, format)
        }
        return (FDSNEndpoint(rawValue: name) ?? .docs, nil)
    }
}

extension StandInState {
    /// Answers an FDSN method as the real service would (faults aside).
    /// - Parameter countDelta: added to a `count` answer (the wrong-count fault).
    func answer(_ endpoint: FDSNEndpoint, parameters: [(name: String, value: String)], context: RequestContext,
                countDelta: Int = 0) -> PendingAnswer {
        switch endpoint {
        case .query: query(parameters, context)
        case .count: count(parameters, context, delta: countDelta)
        case .version: .ready(ServiceAnswer(status: 200, contentType: ServiceAnswer.plain, text: ServiceInfo.version))
        case .catalogs: .ready(xmlList("Catalogs", "Catalog"))
        case .contributors: .ready(xmlList("Contributors", "Contributor"))
        case .applicationJSON: .ready(applicationJSON())
        case .docs: .ready(ServiceAnswer(status: 200, contentType: ServiceAnswer.html, text: DocumentationPage.html))
        }
    }

    private func query(_ parameters: [(name: String, value: String)], _ context: RequestContext) -> PendingAnswer {
        let request: FDSNRequest
        do { request = try parse(parameters) } catch { return .ready(context.answer(for: error)) }
        if case .other(let name) = request.format {
            return .ready(context.answer(for: .badRequest(
                "Bad format value \"\(name)\". The USGS stand-in serves format=geojson and format=csv only.")))
        }
        if let eventId = request.eventId, request.format != .csv {
            return detail(eventId, request, context)
        }
        let matches = matching(effectiveFilter(request, context), eventId: request.eventId)
        if matches.isEmpty && request.format.followsQuakeMLRules {
            return .ready(context.answer(for: ServiceError(status: request.noData, message: ServiceError.phrase(for: request.noData))))
        }
        if matches.count > cap && request.limit == nil {
            return .ready(context.answer(for: .badRequest(
                "\(matches.count) matching events exceeds search limit of \(cap). Modify the search to match fewer events.")))
        }
        let page = Self.page(matches, request.order, limit: request.limit, offset: request.offset)
        if request.format == .csv { return .csv(page) }
        let metadata = PageMetadata(generated: context.now, url: context.url, title: "USGS Earthquakes", status: 200,
                                    api: ServiceInfo.api, count: page.count, limit: request.limit, offset: request.offset)
        return .collection(page, metadata, callback: request.callback)
    }

    /// `eventid`: one Feature; all other filters are ignored.
    private func detail(_ eventId: String, _ request: FDSNRequest, _ context: RequestContext) -> PendingAnswer {
        let quakeML = request.format.followsQuakeMLRules
        guard let event = catalog.event(withAnyId: eventId) else {
            let status = quakeML ? request.noData : 404
            return .ready(context.answer(for: ServiceError(status: status, message: ServiceError.phrase(for: status))))
        }
        if event.isDeleted && request.filter.deleted == .exclude && !request.includeSuperseded && !quakeML {
            return .ready(context.answer(for: ServiceError(status: 409, message:
                "The requested event has been deleted. To see information for deleted events, perform a search and use the \"includedeleted\" option.")))
        }
        return .detail(event, details, base: context.productBase, includeSuperseded: request.includeSuperseded, callback: request.callback)
    }

    private func count(_ parameters: [(name: String, value: String)], _ context: RequestContext, delta: Int) -> PendingAnswer {
        let request: FDSNRequest
        do { request = try parse(parameters) } catch { return .ready(context.answer(for: error)) }
        let count = max(0, self.count(effectiveFilter(request, context), eventId: request.eventId) + delta)
        let error = count > cap
            ? "\(count) matching events exceeds search limit of \(cap). A query using these search parameters would fail. Modify the search to match fewer events."
            : nil
        switch request.format {
        case .geojson:
            var json = "{\"count\":\(count),\"maxAllowed\":\(cap)"
            if let error { json += ",\"error\":\"\(error)\"" }
            json += "}"
            guard let callback = request.callback else {
                return .ready(ServiceAnswer(status: 200, contentType: "application/json", text: json))
            }
            return .ready(PendingAnswer.json(json, callback: callback))
        case .other("xml"):
            let xml = "<query><count>\(count)</count><maxAllowed>\(cap)</maxAllowed>" + (error.map { "<error>\($0)</error>" } ?? "") + "</query>"
            return .ready(ServiceAnswer(status: 200, contentType: "application/xml", text: xml))
        default:
            return .ready(ServiceAnswer(status: 200, contentType: ServiceAnswer.plain, text: String(count)))
        }
    }

    /// The request's filter with the service's default `starttime` (now − 30 days) when none was sent.
    private func effectiveFilter(_ request: FDSNRequest, _ context: RequestContext) -> EventFilter {
        var filter = request.filter
        if !request.startTimeGiven { filter.startTime = context.now - Self.defaultWindow }
        return filter
    }

    private func xmlList(_ list: String, _ item: String) -> ServiceAnswer {
        let body = "<?xml version=\"1.0\"?>\n<\(list)>" + catalog.sourceNames.sorted().map { "<\(item)>\($0)</\(item)>" }.joined() + "</\(list)>"
        return ServiceAnswer(status: 200, contentType: "application/xml", text: body)
    }

    private func applicationJSON() -> ServiceAnswer {
        var productTypes: Set<String> = [], eventTypes: Set<String> = [], magnitudeTypes: Set<String> = []
        catalog.forEach { event in
            productTypes.formUnion(event.types)
            if let type = event.eventType { eventTypes.insert(type) }
            if let magType = event.magType { magnitudeTypes.insert(magType) }
        }
        let sources = catalog.sourceNames.sorted()
        let object: [String: [String]] = ["catalogs": sources, "contributors": sources, "producttypes": productTypes.sorted(),
                                          "eventtypes": eventTypes.sorted(), "magnitudetypes": magnitudeTypes.sorted()]
        let members = ["catalogs", "contributors", "producttypes", "eventtypes", "magnitudetypes"].map { key in
            "\"\(key)\":[" + object[key]!.map(AdminJSON.quoted).joined(separator: ",") + "]"
        }
        return ServiceAnswer(status: 200, contentType: "application/json", text: "{" + members.joined(separator: ",") + "}")
    }
}
