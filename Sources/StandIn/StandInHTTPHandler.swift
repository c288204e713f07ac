import FlyingFox
import Foundation
import Logging

/// Routes every HTTP request: the FDSN methods under `/fdsnws/event/1/` (faults apply),
/// the admin interface under `/admin/` (never faulted). Logs each request on stderr and
/// keeps FDSN requests in the state's request log.
struct StandInHTTPHandler: HTTPHandler {
    let state: StandInState
    let logger: Logger

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let started = ContinuousClock.now
        let target = request.target.rawValue
        let path = request.target.path()
        let parameters = QueryString.parse(request.target.query())
        let host = request.headers[.host] ?? "127.0.0.1"
        let gzip = request.headers[HTTPHeader("Accept-Encoding")]?.lowercased().contains("gzip") ?? false

        let endpoint: String
        var fault: FaultKind?
        let delivery: Delivery
        if path == "/admin" || path.hasPrefix("/admin/") {
            endpoint = "admin"
            delivery = Delivery(answer: await AdminRoutes.answer(request, path: path, parameters: parameters, state: state, host: host))
        } else if path == "/fdsnws/event/1" {
            endpoint = "redirect"
            let location = "http://\(host)\(ServiceInfo.basePath)" + (request.target.query().isEmpty ? "" : "?" + request.target.query())
            delivery = Delivery(answer: ServiceAnswer(status: 301, contentType: ServiceAnswer.html, body: Data("<html><body>Moved Permanently</body></html>\n".utf8),
                                                      headers: [("Location", location)]))
        } else if path.hasPrefix(ServiceInfo.basePath) {
            let (method, impliedFormat) = FDSNEndpoint.parse(String(path.dropFirst(ServiceInfo.basePath.count)))
            let fdsnParameters = parameters + (impliedFormat.map { [("format", $0)] } ?? [])
            let last = FDSNRequest.lastValues(fdsnParameters)
            let jsonErrors = last.contains { $0 == ("format", "geojson") } && last.contains { $0.name == "jsonerror" && $0.value.lowercased() == "true" }
            // One event's detail answer (`query?eventid=`, not CSV) is logged, and faulted, as `detail`.
            let isDetail = method == .query && last.contains { $0.name == "eventid" && !$0.value.isEmpty }
                && !last.contains { $0.name == "format" && $0.value.lowercased() == "csv" }
            endpoint = isDetail ? "detail" : method.rawValue
            let begun = await state.begin(endpoint)
            fault = begun.fault
            let context = RequestContext(target: target, url: "http://\(host)\(target)", now: begun.now, jsonErrors: jsonErrors,
                                         productBase: "http://\(host)/product/")
            delivery = await FaultInjection.deliver(begun.fault, context: context, gzip: gzip) { delta in
                await state.answer(method, parameters: fdsnParameters, context: context, countDelta: delta).render()
            }
        } else if path.hasPrefix("/product/") {
            endpoint = "product"
            let begun = await state.begin(endpoint)
            fault = begun.fault
            let context = RequestContext(target: target, url: "http://\(host)\(target)", now: begun.now, jsonErrors: false,
                                         productBase: "http://\(host)/product/")
            let name = String(path.dropFirst("/product/".count)).removingPercentEncoding ?? ""
            delivery = await FaultInjection.deliver(begun.fault, context: context, gzip: gzip) { _ in await state.productFile(name) }
        } else {
            endpoint = "other"
            delivery = Delivery(answer: ServiceAnswer(status: 404, contentType: ServiceAnswer.plain, text: "Not Found\n"))
        }

        let elapsed = ContinuousClock.now - started
        let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let sent = delivery.hostileBody?.count ?? delivery.disconnectAfter ?? delivery.answer.body.count
        let faultNote = fault.map { ", fault \($0.name)" } ?? ""
        logger.info("\(request.method.rawValue) \(target) → \(delivery.answer.status), \(sent) bytes, \(ms) ms\(faultNote)")
        if endpoint != "admin" {
            await state.record(RequestRecord(seq: 0, method: request.method.rawValue, target: target, endpoint: endpoint,
                                             status: delivery.answer.status, bytes: sent, ms: ms, fault: fault?.name))
        }
        return Self.response(delivery)
    }

    private static func response(_ delivery: Delivery) -> HTTPResponse {
        let answer = delivery.answer
        var headers = HTTPHeaders()
        for (name, value) in answer.headers { headers.addValue(value, for: HTTPHeader(name)) }
        let status = HTTPStatusCode(answer.status, phrase: ServiceError.phrase(for: answer.status))
        if let hostile = delivery.hostileBody {
            let body = hostile.count.map { HTTPBodySequence(from: hostile.sequence, count: $0) } ?? HTTPBodySequence(from: hostile.sequence)
            return HTTPResponse(statusCode: status, headers: headers, body: body)
        }
        if let cut = delivery.disconnectAfter {
            let body = HTTPBodySequence(from: BrokenBody(part: answer.body.prefix(cut)), count: answer.body.count)
            return HTTPResponse(statusCode: status, headers: headers, body: body)
        }
        return HTTPResponse(statusCode: status, headers: headers, body: answer.body)
    }
}
