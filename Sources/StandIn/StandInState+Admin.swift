import Foundation
import QuakeCatalog
import QuakeCommon

/// The admin interface's operations on the state. Each returns the JSON body to send
/// or throws an `AdminError`.
extension StandInState {
    // MARK: Events

    /// `GET /admin/catalog`: every served event the FDSN filters select, with no cap and no
    /// default `starttime`; GeoJSON unless `format=csv`; `includedeleted`, `orderby`, `limit`/`offset` work as in `query`.
    func catalogDump(_ parameters: [(name: String, value: String)], url: String) throws(AdminError) -> PendingAnswer {
        let request: FDSNRequest
        let asked = parameters.contains { $0.name == "format" } ? parameters : parameters + [("format", "geojson")]
        do { request = try parse(asked) } catch { throw AdminError(status: error.status, message: error.message) }
        let page = Self.page(matching(request.filter, eventId: request.eventId), request.order, limit: request.limit, offset: request.offset)
        if request.format == .csv { return .csv(page) }
        let metadata = PageMetadata(generated: clock.nowSeconds, url: url, title: "USGS stand-in catalog", status: 200,
                                    api: ServiceInfo.api, count: page.count, limit: request.limit, offset: request.offset)
        return .collection(page, metadata, callback: nil)
    }

    /// `GET /admin/catalog/digest`: how many served events the FDSN filters select (deleted ones
    /// counted apart) and the `CatalogDigest` of those not deleted.
    func catalogDigest(_ parameters: [(name: String, value: String)]) throws(AdminError) -> Data {
        let request: FDSNRequest
        let asked = parameters.contains { $0.name == "includedeleted" } ? parameters : parameters + [("includedeleted", "true")]
        do { request = try parse(asked + [("format", "geojson")]) } catch { throw AdminError(status: error.status, message: error.message) }
        // Lines straight from the served events, without copying them first: the replay asks at every step.
        var lines: [[UInt8]] = [], deleted = 0
        let add = { (event: QuakeEvent) in
            guard request.filter.matches(event) else { return }
            if event.isDeleted { deleted += 1 } else { lines.append(CatalogDigest.line(of: event)) }
        }
        if let eventId = request.eventId {
            matching(request.filter, eventId: eventId).forEach { add($0.event) }
        } else {
            catalog.forEach(add)
        }
        struct Digest: Encodable { var events: Int; var deleted: Int; var digest: String }
        return AdminJSON.encode(Digest(events: lines.count, deleted: deleted, digest: CatalogDigest.of(lines: lines)))
    }

    /// `POST /admin/events`: serves the events in `body` (GeoJSON Feature or FeatureCollection,
    /// or ComCat CSV) as given, replacing events that share an id. Nothing is added when any item is bad.
    func addEvents(_ body: Data) throws(AdminError) -> Data {
        let page = CatalogFile.read(body, source: "admin body")
        if let problem = page.problem { throw AdminError(status: 400, message: problem) }
        if let reject = page.rejects.first {
            throw AdminError(status: 400, message: "\(page.rejects.count) bad item(s); first at \(reject.position): \(reject.reason)")
        }
        var replaced = 0
        for event in page.events {
            if event.allIds.contains(where: { catalog.preferredId(for: $0) != nil }) { replaced += 1 }
            catalog.put(event)
        }
        struct Added: Encodable { var added: Int; var replaced: Int; var ids: [String] }
        return AdminJSON.encode(Added(added: page.events.count - replaced, replaced: replaced, ids: page.events.map(\.id)))
    }

    /// `POST /admin/events/ID/update`: changes fields, bumping `updated`.
    func updateEvent(_ id: String, fields: [String: JSON]) throws(AdminError) -> Data {
        let event = try served(id)
        let next = try EventEdits.updated(event, fields: fields, now: clock.now)
        catalog.put(next)
        return Data(GeoJSONWriter.feature(next).utf8)
    }

    /// `POST /admin/events/ID/preferred-id`: the event's preferred id becomes `newId`.
    func changePreferredId(_ id: String, to newId: String) throws(AdminError) -> Data {
        let event = try served(id)
        guard !newId.isEmpty, !newId.contains(",") else { throw AdminError(status: 400, message: "the new id must be non-empty, without commas") }
        if let owner = catalog.preferredId(for: newId), owner != event.id {
            throw AdminError(status: 409, message: "id \(newId) belongs to another event (\(owner))")
        }
        let next = newId == event.id ? event : EventEdits.renamed(event, to: newId, now: clock.now)
        catalog.put(next)
        return Data(GeoJSONWriter.feature(next).utf8)
    }

    /// `POST /admin/events/ID/delete`: marks the event deleted.
    func deleteEvent(_ id: String) throws(AdminError) -> Data {
        let next = EventEdits.deleted(try served(id), now: clock.now)
        catalog.put(next)
        return Data(GeoJSONWriter.feature(next).utf8)
    }

    private func served(_ id: String) throws(AdminError) -> QuakeEvent {
        guard let event = catalog.event(withAnyId: id) else { throw AdminError(status: 404, message: "no event with id \(id)") }
        return event
    }

    // MARK: Faults and requests

    /// `GET /admin/faults` (and the answer of every fault change).
    func faultList() -> Data {
        struct Rule: Encodable { var spec: String; var kind: String; var seen: Int; var fired: Int }
        struct List: Encodable { var faults: [Rule] }
        return AdminJSON.encode(List(faults: faults.rules.map { Rule(spec: $0.spec, kind: $0.kind.name, seen: $0.seen, fired: $0.fired) }))
    }

    /// `POST /admin/faults`: adds rules (all or none).
    func addFaults(_ specs: [String]) throws(AdminError) -> Data {
        do { try faults.add(specs) } catch { throw AdminError(status: 400, message: error.description) }
        return faultList()
    }

    /// `DELETE /admin/faults`.
    func clearFaults() -> Data {
        faults.clear()
        return faultList()
    }

    /// `GET /admin/requests`: the FDSN requests since the last reset.
    func requestList() -> Data {
        struct List: Encodable { var requests: [RequestRecord] }
        return AdminJSON.encode(List(requests: log.records))
    }

    /// `DELETE /admin/requests`.
    func resetRequests() -> Data {
        log.reset()
        return requestList()
    }

    // MARK: Clock and replay

    /// `GET /admin/clock`.
    func clockState() -> Data {
        struct Clock: Encodable { var now: Int64; var iso: String; var fixed: Bool; var replay: Bool }
        let now = clock.now
        return AdminJSON.encode(Clock(now: now, iso: ISOTime.format(milliseconds: now), fixed: clock.fixed != nil, replay: replay != nil))
    }

    /// `POST /admin/clock` with `{"now": T}`, `{"advance": D}` or `{"wall": true}`.
    func setClock(_ body: [String: JSON]) throws(AdminError) -> Data {
        if replay != nil {
            throw AdminError(status: 409, message: "in replay mode the clock is the replay time; use POST /admin/replay/advance")
        }
        if body["wall"] == .bool(true) {
            clock.fixed = nil
        } else if let now = body["now"] {
            clock.fixed = try AdminJSON.time(now, "now")
        } else if let advance = body["advance"] {
            clock.fixed = clock.now + (try AdminDuration.milliseconds(advance, "advance"))
        } else {
            throw AdminError(status: 400, message: "send {\"now\": TIME}, {\"advance\": DURATION} or {\"wall\": true}")
        }
        return clockState()
    }

    /// `GET /admin/replay`.
    func replayState(step: ReplayStep? = nil) throws(AdminError) -> Data {
        guard let replay else { throw AdminError(status: 409, message: "not in replay mode (start with --replay FILE)") }
        struct State: Encodable {
            var asOf: Int64; var asOfISO: String; var step: ReplayStep?; var totals: ReplayStep; var served: Int; var deleted: Int
        }
        return AdminJSON.encode(State(asOf: replay.asOf, asOfISO: ISOTime.format(milliseconds: replay.asOf), step: step,
                                      totals: replay.totals, served: catalog.count, deleted: catalog.deletedCount))
    }

    /// `POST /admin/replay/advance` with `{"to": T}` or `{"by": D}`; the clock follows.
    func advanceReplay(_ body: [String: JSON]) throws(AdminError) -> Data {
        guard let replay else { throw AdminError(status: 409, message: "not in replay mode (start with --replay FILE)") }
        let target: Int64
        if let to = body["to"] {
            target = try AdminJSON.time(to, "to")
        } else if let by = body["by"] {
            target = replay.asOf + (try AdminDuration.milliseconds(by, "by"))
        } else {
            throw AdminError(status: 400, message: "send {\"to\": TIME} or {\"by\": DURATION}")
        }
        let step: ReplayStep
        do { step = try replay.advance(to: target, catalog: &catalog) } catch { throw AdminError(status: 400, message: error.description) }
        clock.fixed = replay.asOf
        return try replayState(step: step)
    }

    /// `GET /admin/status`: a summary for people.
    func status() -> Data {
        struct Status: Encodable {
            var events: Int; var deleted: Int; var cap: Int; var now: String; var replay: Bool; var faults: Int; var requests: Int; var details: Int
        }
        return AdminJSON.encode(Status(events: catalog.count, deleted: catalog.deletedCount, cap: cap, now: ISOTime.format(milliseconds: clock.now),
                                       replay: replay != nil, faults: faults.rules.count, requests: log.records.count, details: details.count))
    }
}
