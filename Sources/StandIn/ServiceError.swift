/// An error answer of the FDSN service: an HTTP status and the service's message text.
struct ServiceError: Error, Sendable, Equatable {
    var status: Int
    var message: String

    static func badRequest(_ message: String) -> ServiceError { ServiceError(status: 400, message: message) }

    /// The HTTP reason phrase, also written after the status on error pages (`Error 400: Bad Request`).
    static func phrase(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 409: "Conflict"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Unknown"
        }
    }
}
