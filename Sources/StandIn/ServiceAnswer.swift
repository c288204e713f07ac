import Foundation
import QuakeCatalog

/// An answer as the service produces it, before faults and gzip: status, headers, body.
struct ServiceAnswer: Sendable {
    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: Data

    init(status: Int, contentType: String?, body: Data, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.headers = (contentType.map { [("Content-Type", $0)] } ?? []) + headers
        self.body = body
    }

    init(status: Int, contentType: String?, text: String) {
        self.init(status: status, contentType: contentType, body: Data(text.utf8))
    }

    static let json = "application/json; charset=utf-8"
    static let plain = "text/plain"
    static let html = "text/html; charset=UTF-8"
}

/// Where a request came from and how errors must be written for it.
struct RequestContext: Sendable {
    /// The request target (path and query) exactly as sent.
    var target: String
    /// The full URL of the request, for `metadata.url`.
    var url: String
    /// The service clock when the request arrived (ms, whole seconds).
    var now: Int64
    /// `format=geojson&jsonerror=true`: errors come as a FeatureCollection on HTTP 200.
    var jsonErrors: Bool
    /// Where this stand-in serves product files (`http://HOST/product/`), for content URLs.
    var productBase: String

    /// The service's error answer for `error`, plain or JSON as the request asked.
    func answer(for error: ServiceError) -> ServiceAnswer {
        if error.status < 400 { return ServiceAnswer(status: error.status, contentType: nil, body: Data()) }
        if jsonErrors {
            let body = GeoJSONWriter.error(status: error.status, message: error.message, url: url, generated: now, api: ServiceInfo.api)
            return ServiceAnswer(status: 200, contentType: ServiceAnswer.json, text: body)
        }
        return ServiceAnswer(status: error.status, contentType: ServiceAnswer.plain, text: plainText(for: error))
    }

    /// The plain-text error page in the service's layout.
    func plainText(for error: ServiceError) -> String {
        [
            "Error \(error.status): \(ServiceError.phrase(for: error.status))", "",
            error.message, "",
            "Usage details are available from \(ServiceInfo.usageURL)", "",
            "Request:", target.replacingOccurrences(of: "&", with: "&amp;"), "",
            "Request Submitted:", ISOTime.formatParameter(milliseconds: now) + "+00:00", "",
            "Service version:", ServiceInfo.version,
        ].joined(separator: "\n") + "\n"
    }
}

/// Fixed facts the service reports about itself.
enum ServiceInfo {
    /// The `version` method's answer and the error pages' "Service version".
    static let version = "2.7.0"
    /// `metadata.api` in GeoJSON answers.
    static let api = "1.14.1"
    /// Where the error pages send people for usage details (the real service's docs).
    static let usageURL = "https://earthquake.usgs.gov/fdsnws/event/1"
    /// The FDSN base path; the stand-in serves it as the real service does.
    static let basePath = "/fdsnws/event/1/"
}
