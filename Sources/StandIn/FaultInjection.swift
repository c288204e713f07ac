import Foundation
import QuakeCatalog
import QuakeCommon

/// How an answer goes on the wire once faults have had their say.
struct Delivery: Sendable {
    var answer: ServiceAnswer
    /// For a disconnect: how many body bytes to send before closing the connection
    /// (the headers still announce the full length).
    var disconnectAfter: Int?
    /// A body generated as it is sent instead of `answer.body` (hostile faults).
    var hostileBody: HostileBody?
}

/// Applies an injected fault to one FDSN request.
enum FaultInjection {
    /// Answers the request, with `fault` (if any) changing what is answered or how.
    /// - Parameter answer: produces the service's true answer; given the `count` delta.
    static func deliver(_ fault: FaultKind?, context: RequestContext, gzip: Bool,
                        answer: (_ countDelta: Int) async -> ServiceAnswer) async -> Delivery {
        switch fault {
        case .unavailable?:
            let error = ServiceError(status: 503, message: "Service temporarily unavailable, please try again later.")
            return Delivery(answer: encoded(ServiceAnswer(status: 503, contentType: ServiceAnswer.plain, text: context.plainText(for: error)), gzip))
        case .throttled(let seconds)?:
            let throttled = ServiceAnswer(status: 429, contentType: ServiceAnswer.plain, body: Data("Too Many Requests\n".utf8),
                                          headers: [("Retry-After", String(seconds))])
            return Delivery(answer: throttled)
        case .proxyPage(let status)?:
            let title = "\(status) \(ServiceError.phrase(for: status))"
            let page = "<html>\r\n<head><title>\(title)</title></head>\r\n<body>\r\n<center><h1>\(title)</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
            return Delivery(answer: ServiceAnswer(status: status, contentType: "text/html", text: page))
        case .errorInBody(let status)?:
            let body = GeoJSONWriter.error(status: status, message: ServiceError.phrase(for: status), url: context.url,
                                           generated: context.now, api: ServiceInfo.api)
            return Delivery(answer: encoded(ServiceAnswer(status: 200, contentType: ServiceAnswer.json, text: body), gzip))
        case .stall(let seconds)?:
            try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
            return Delivery(answer: encoded(await answer(0), gzip))
        case .wrongCount(let delta)?:
            return Delivery(answer: encoded(await answer(delta), gzip))
        case .truncate?:
            var cut = await answer(0)
            cut.body = cut.body.prefix(cut.body.count / 2)
            return Delivery(answer: encoded(cut, gzip))
        case .damagedFeature?:
            var damaged = await answer(0)
            damaged.body = damageFirstFeature(damaged.body)
            return Delivery(answer: encoded(damaged, gzip))
        case .outsideFeature?:
            var outside = await answer(0)
            outside.body = moveFirstFeatureOutside(outside.body)
            return Delivery(answer: encoded(outside, gzip))
        case .disconnect?:
            let full = encoded(await answer(0), gzip)
            return Delivery(answer: full, disconnectAfter: full.body.count / 2)
        case .hostileBody(let body)?:
            return Delivery(answer: ServiceAnswer(status: 200, contentType: ServiceAnswer.json, body: Data()), hostileBody: body)
        case .drip(let rate)?:
            let full = await answer(0)
            var headers = ServiceAnswer(status: full.status, contentType: nil, body: Data())
            headers.headers = full.headers
            return Delivery(answer: headers, hostileBody: .drip(full.body, bytesPerSecond: rate))
        case .gzipBomb(let megabytes)?:
            let bomb = (try? HostileBody.gzipBomb(inflatingTo: megabytes << 20)) ?? Data()
            return Delivery(answer: ServiceAnswer(status: 200, contentType: ServiceAnswer.json, body: bomb,
                                                  headers: [("Content-Encoding", "gzip")]))
        case .badCount(let text)?:
            let body = #"{"count":"# + text + #","maxAllowed":20000}"#
            return Delivery(answer: encoded(ServiceAnswer(status: 200, contentType: ServiceAnswer.json, text: body), gzip))
        case .badCap(let text)?:
            let counted = await answer(0)
            let count = (try? JSONSerialization.jsonObject(with: counted.body) as? [String: Any])?["count"] as? Int ?? 0
            let body = #"{"count":"# + String(count) + #","maxAllowed":"# + text + "}"
            return Delivery(answer: encoded(ServiceAnswer(status: 200, contentType: ServiceAnswer.json, text: body), gzip))
        case .shortPage(let dropping)?:
            var short = await answer(0)
            short.body = editFeatures(short.body) { features in Array(features.dropLast(dropping ?? features.count / 2)) }
            return Delivery(answer: encoded(short, gzip))
        case .featureOnly?:
            let full = await answer(0)
            let features = (try? JSONSerialization.jsonObject(with: full.body) as? [String: Any])?["features"] as? [Any]
            let first = (features?.first).flatMap { try? JSONSerialization.data(withJSONObject: $0) } ?? full.body
            return Delivery(answer: encoded(ServiceAnswer(status: 200, contentType: ServiceAnswer.json, body: first), gzip))
        case .repeatedID?:
            var repeated = await answer(0)
            repeated.body = editFeatures(repeated.body) { features in
                guard let id = (features.first as? [String: Any])?["id"] else { return features }
                return features.map { feature in
                    guard var object = feature as? [String: Any] else { return feature }
                    object["id"] = id
                    return object
                }
            }
            return Delivery(answer: encoded(repeated, gzip))
        case .bigHeader(let kilobytes)?:
            var padded = encoded(await answer(0), gzip)
            padded.headers.append(("X-Padding", String(repeating: "a", count: kilobytes << 10)))
            return Delivery(answer: padded)
        case .manyHeaders(let lines)?:
            var padded = encoded(await answer(0), gzip)
            padded.headers += (1...lines).map { ("X-Padding-\($0)", "a") }
            return Delivery(answer: padded)
        case .redirect(let base)?:
            let location = base.map { $0.hasSuffix("/") ? String($0.dropLast()) + context.target : $0 + context.target } ?? context.url
            return Delivery(answer: ServiceAnswer(status: 302, contentType: ServiceAnswer.plain, body: Data("Found\n".utf8),
                                                  headers: [("Location", location)]))
        case nil:
            return Delivery(answer: encoded(await answer(0), gzip))
        }
    }

    /// The body with the first feature's latitude set to 91 (the count of features is unchanged).
    static func damageFirstFeature(_ body: Data) -> Data {
        var text = String(decoding: body, as: UTF8.self)
        guard let coordinates = text.range(of: "\"coordinates\":["),
              let comma = text[coordinates.upperBound...].firstIndex(of: ","),
              let end = text[text.index(after: comma)...].firstIndex(where: { $0 == "," || $0 == "]" }) else { return body }
        text.replaceSubrange(text.index(after: comma)..<end, with: "91")
        return Data(text.utf8)
    }

    /// The FeatureCollection `body` with its features array replaced by `edit` of it.
    static func editFeatures(_ body: Data, _ edit: ([Any]) -> [Any]) -> Data {
        guard var collection = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let features = collection["features"] as? [Any] else { return body }
        collection["features"] = edit(features)
        return (try? JSONSerialization.data(withJSONObject: collection)) ?? body
    }

    /// The body with the first feature's origin time set to 0 (1970-01-01T00:00:00Z).
    static func moveFirstFeatureOutside(_ body: Data) -> Data {
        var text = String(decoding: body, as: UTF8.self)
        guard let key = text.range(of: "\"time\":"),
              let end = text[key.upperBound...].firstIndex(where: { $0 == "," || $0 == "}" }) else { return body }
        text.replaceSubrange(key.upperBound..<end, with: "0")
        return Data(text.utf8)
    }

    /// The answer gzip-compressed when the client accepts it and there is a body.
    static func encoded(_ answer: ServiceAnswer, _ gzip: Bool) -> ServiceAnswer {
        guard gzip, !answer.body.isEmpty, let compressed = try? Gzip.compress(answer.body) else { return answer }
        var encoded = answer
        encoded.body = compressed
        encoded.headers += [("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")]
        return encoded
    }
}
