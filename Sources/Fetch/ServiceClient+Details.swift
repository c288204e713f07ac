import Foundation
import QuakeCatalog
import QuakeCommon

/// One quake's detail answer: as received (for the archive) and read.
struct DetailAnswer: Sendable {
    var url: URL
    /// The body as received (decompressed, when the service sent it gzip).
    var body: Data
    var document: DetailDocument
}

/// Why a content file is left out, in words for the summary's `left_out`.
struct ContentLeftOut: Error, CustomStringConvertible {
    let description: String
}

extension ServiceClient {
    /// `query?eventid=ID&format=geojson`: the quake's detail answer, one Feature with its
    /// products. A 404 (unknown) or 409 (deleted) is `ServiceError.rejected`; a damaged or
    /// incomplete answer is retried as a damaged page is.
    func detail(_ eventID: String) async throws -> DetailAnswer {
        let url = makeURL("query", [("eventid", eventID), ("format", "geojson")])
        return try await withRetries(url: url, endpoint: "detail") { answer in
            if let problem = problem(in: answer, url: url) { return .failure(problem) }
            let body: Data
            do {
                body = try Gzip.decompressIfNeeded(answer.body, limit: maxBodyBytes)
            } catch {
                return .failure(.transient("the detail answer does not decompress: \(error)", retryAfter: nil))
            }
            do {
                return .success(DetailAnswer(url: url, body: body, document: try DetailDocument.parse(body)))
            } catch {
                return .failure(.transient("damaged detail answer: \(error): \(Self.snippet(body))", retryAfter: nil))
            }
        }
    }

    /// A product file at `url` (on the service's host), decompressed, at most `maxBodyBytes`
    /// (this client's: see `DetailRun`). Throws `ContentLeftOut` saying why there is none: the
    /// service's status (404: the file is not there), a body over the limit, the transfer's failure.
    func content(_ url: URL) async throws -> Data {
        do {
            return try await withRetries(url: url, endpoint: "content") { answer in
                // Product files are JSON or XML: no status-200 HTML check as for the service's answers.
                guard answer.status == 200 else {
                    let retryAfter = RetryPolicy.retryAfter(answer.header("Retry-After"))
                    return .failure(classify(status: answer.status, message: Self.serviceMessage(answer.body), url: url, retryAfter: retryAfter))
                }
                do {
                    return .success(try Gzip.decompressIfNeeded(answer.body, limit: maxBodyBytes))
                } catch {
                    return .failure(.fatal(.rejected(status: answer.status, message: "it does not decompress within \(Format.bytes(maxBodyBytes)): \(error)", url: url)))
                }
            }
        } catch let error as ServiceError {
            switch error {
            case .rejected(let status, let message, _):
                throw ContentLeftOut(description: status == 200 ? message : "status \(status) (\(message))")
            case .unavailable(_, let problem, _), .misconfigured(let problem, _):
                throw ContentLeftOut(description: problem)
            case .overCap(let message, _):
                throw ContentLeftOut(description: message)
            }
        }
    }
}
