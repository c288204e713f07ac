import FlyingFox
import Foundation

/// The admin interface under `/admin/` (JSON; documented in docs/stand-in.md). It changes
/// the catalog, the faults, the clock and the replay, and reads the request log. Faults
/// never apply here.
enum AdminRoutes {
    /// Every endpoint, as `GET /admin/` lists them.
    static let endpoints = [
        "GET /admin/status", "GET /admin/catalog?FDSN-PARAMETERS", "GET /admin/catalog/digest?FDSN-PARAMETERS", "POST /admin/events",
        "POST /admin/events/ID/update", "POST /admin/events/ID/preferred-id", "POST /admin/events/ID/delete",
        "GET /admin/faults", "POST /admin/faults", "DELETE /admin/faults",
        "GET /admin/requests", "DELETE /admin/requests",
        "GET /admin/clock", "POST /admin/clock", "GET /admin/replay", "POST /admin/replay/advance",
        "POST /admin/details", "POST /admin/products/PATH",
    ]

    static func answer(_ request: HTTPRequest, path: String, parameters: [(name: String, value: String)],
                       state: StandInState, host: String) async -> ServiceAnswer {
        let parts = path.split(separator: "/").dropFirst().map { $0.removingPercentEncoding ?? String($0) }
        let method = request.method.rawValue
        do {
            let body = try await request.bodyData
            let json: Data
            switch (method, parts.count) {
            case ("GET", 0):
                struct Index: Encodable { var endpoints: [String] }
                json = AdminJSON.encode(Index(endpoints: endpoints))
            case ("GET", 1) where parts[0] == "status":
                json = await state.status()
            case ("GET", 1) where parts[0] == "catalog":
                let url = "http://\(host)\(request.target.rawValue)"
                return try await state.catalogDump(parameters, url: url).render()
            case ("GET", 2) where parts[0] == "catalog" && parts[1] == "digest":
                json = try await state.catalogDigest(parameters)
            case ("POST", 1) where parts[0] == "events":
                json = try await state.addEvents(body)
            case ("POST", 3) where parts[0] == "events" && parts[2] == "update":
                json = try await state.updateEvent(parts[1], fields: try AdminJSON.object(body))
            case ("POST", 3) where parts[0] == "events" && parts[2] == "preferred-id":
                guard case .string(let newId)? = try AdminJSON.object(body)["id"] else {
                    throw AdminError(status: 400, message: "send {\"id\": \"NEWID\"}")
                }
                json = try await state.changePreferredId(parts[1], to: newId)
            case ("POST", 3) where parts[0] == "events" && parts[2] == "delete":
                json = try await state.deleteEvent(parts[1])
            case ("POST", 1) where parts[0] == "details":
                json = try await state.addDetails(body)
            case ("POST", _) where parts.count >= 3 && parts[0] == "products":
                json = try await state.addProductFile(parts.dropFirst().joined(separator: "/"), body)
            case ("GET", 1) where parts[0] == "faults":
                json = await state.faultList()
            case ("POST", 1) where parts[0] == "faults":
                json = try await state.addFaults(try faultSpecs(body))
            case ("DELETE", 1) where parts[0] == "faults":
                json = await state.clearFaults()
            case ("GET", 1) where parts[0] == "requests":
                json = await state.requestList()
            case ("DELETE", 1) where parts[0] == "requests":
                json = await state.resetRequests()
            case ("GET", 1) where parts[0] == "clock":
                json = await state.clockState()
            case ("POST", 1) where parts[0] == "clock", ("PUT", 1) where parts[0] == "clock":
                json = try await state.setClock(try AdminJSON.object(body))
            case ("GET", 1) where parts[0] == "replay":
                json = try await state.replayState()
            case ("POST", 2) where parts[0] == "replay" && parts[1] == "advance":
                json = try await state.advanceReplay(try AdminJSON.object(body))
            default:
                throw AdminError(status: 404, message: "no admin endpoint \(method) \(path); GET /admin/ lists them")
            }
            return ServiceAnswer(status: 200, contentType: ServiceAnswer.json, body: json)
        } catch let error as AdminError {
            return ServiceAnswer(status: error.status, contentType: ServiceAnswer.json, text: "{\"error\":\(AdminJSON.quoted(error.message))}")
        } catch {
            return ServiceAnswer(status: 400, contentType: ServiceAnswer.json, text: "{\"error\":\(AdminJSON.quoted("\(error)"))}")
        }
    }

    /// `{"faults": [SPEC, …]}` or `{"fault": SPEC}`.
    private static func faultSpecs(_ body: Data) throws(AdminError) -> [String] {
        let object = try AdminJSON.object(body)
        if case .string(let spec)? = object["fault"] { return [spec] }
        if case .array(let items)? = object["faults"] {
            return try items.map { item throws(AdminError) in
                guard case .string(let spec) = item else { throw AdminError(status: 400, message: "faults must be strings") }
                return spec
            }
        }
        throw AdminError(status: 400, message: "send {\"faults\": [SPEC, …]} or {\"fault\": SPEC}")
    }
}
