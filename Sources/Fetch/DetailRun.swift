import Foundation
import Logging
import QuakeCatalog
import QuakeCommon

/// The details phase of a fetch run, after its pages: for the quakes waiting for details
/// (`Journal.noteDetails`), biggest first and at most `detailsPerRun`, the detail answer
/// (`query?eventid=`) and the content files its summary reads (`DetailDocument.neededContents`),
/// each archived as received (gzip, like pages) and recorded in the journal in one transaction.
///
/// Every request goes through the run's `ServiceClient`: its gate (concurrency and `--budget`),
/// its retries, the journal's statistics (endpoints `detail` and `content`). A content file is
/// fetched only from the service's own host and only up to `maxContentBytes`; one that is not
/// there (404), too big, or not fetched for another reason is archived as left out, with the
/// reason, and the rest of the detail is kept. A quake the service has no detail of (404, 409)
/// gets none until its next version. When the service is in trouble (retries exhausted) the
/// phase stops and the quakes not done wait for the next run: the pages stand either way.
struct DetailRun {
    let runID: Int64
    let options: FetchOptions
    /// The run's client (detail answers) and one on the same gate whose transport stops a body at
    /// `maxContentBytes` (content files).
    let client: ServiceClient
    let contentClient: ServiceClient
    let journal: Journal
    let workspace: Workspace
    let tally: Tally
    let progress: any ProgressSink
    let logger: Logger

    /// What became of one quake's details.
    private enum Outcome: Sendable {
        case fetched
        case missing
        /// The service is in trouble: stop asking.
        case trouble(String)
    }

    /// Fetches the details waiting, up to the run's share.
    func execute() async throws {
        guard options.details != .none, options.detailsPerRun > 0 else { return }
        let pending = try journal.pendingDetails(limit: options.detailsPerRun)
        guard !pending.isEmpty else { return }
        var queue = pending[...]
        var done = 0, trouble: String?
        report(done: 0, of: pending.count)
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            var active = 0
            while active > 0 || (trouble == nil && !queue.isEmpty) {
                while trouble == nil, active < max(1, options.concurrency), let next = queue.popFirst() {
                    active += 1
                    group.addTask { try await self.fetch(next) }
                }
                guard let outcome = try await group.next() else { break }
                active -= 1
                done += 1
                if case .trouble(let message) = outcome, trouble == nil { trouble = message }
                report(done: done, of: pending.count)
            }
        }
        let waiting = try journal.pendingDetailCount()
        if let trouble {
            logger.warning("details: the service is in trouble (\(trouble)); \(Format.count(waiting, "quake")) wait for the next run")
        } else if waiting > 0 {
            logger.debug("details: \(Format.count(waiting, "quake")) more wait for the next runs (--details-per-run \(options.detailsPerRun))")
        }
        tally.detailsWaiting(waiting)
    }

    private func report(done: Int, of total: Int) {
        progress.update(ProgressSnapshot(stage: "fetch", done: done, total: total, unit: "details", detail: "quake details"))
    }

    /// Fetches, archives and records one quake's details.
    private func fetch(_ pending: PendingDetail) async throws -> Outcome {
        let answer: DetailAnswer
        do {
            answer = try await client.detail(pending.eventID)
        } catch let error as ServiceError {
            switch error {
            case .rejected(let status, let message, _):
                logger.debug("details of \(pending.eventID): the service has none (status \(status): \(message))")
                try journal.giveUpDetail(pending.eventID, updated: pending.updated, state: "missing", message: "status \(status): \(message)")
                tally.detail(.missing)
                return .missing
            default:
                try journal.detailAttemptFailed(pending, message: error.description)
                return .trouble(error.description)
            }
        }
        let directory = "archive/details/run-\(String(format: "%06d", runID))/\(Self.fileName(pending.eventID))-\(pending.updated)"
        var contents: [DetailRecord.Content] = []
        for (position, request) in answer.document.neededContents.enumerated() {
            var content = DetailRecord.Content(request: request, file: nil, bytes: nil, reason: nil)
            do {
                let data = try await contentClient.content(try onService(request.url))
                let file = "\(directory)/\(position)-\(Self.fileName((request.name as NSString).lastPathComponent)).gz"
                try AtomicFile.write(try Gzip.compress(data), to: workspace.root.appendingPathComponent(file))
                (content.file, content.bytes) = (file, data.count)
                tally.content(leftOut: false)
            } catch let leftOut as ContentLeftOut {
                content.reason = leftOut.description
                logger.debug("details of \(pending.eventID): \(request.name) of \(request.product) left out: \(leftOut.description)")
                tally.content(leftOut: true)
            }
            contents.append(content)
        }
        let file = "\(directory)/detail.json.gz"
        try AtomicFile.write(try Gzip.compress(answer.body), to: workspace.root.appendingPathComponent(file))
        try journal.recordDetail(DetailRecord(eventID: pending.eventID, updated: pending.updated, file: file, url: answer.url.redacted,
                                              bytes: answer.body.count, sha256: SHA256.hex(answer.body), contents: contents),
                                 runID: runID, now: ISOTime.format(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)))
        tally.detail(.fetched)
        return .fetched
    }

    /// `url` when it is on the service's own host (as `ServiceClient` follows redirects); else
    /// why it is not fetched.
    private func onService(_ url: String) throws -> URL {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw ContentLeftOut(description: "not an http(s) URL")
        }
        guard ServiceClient.isSameService(parsed, as: options.service) else {
            throw ContentLeftOut(description: "not on the service's host (\(parsed.host ?? "?")): not fetched")
        }
        return parsed
    }

    /// `text` as a file name: letters, digits, `-` and `_` kept, anything else `_`, at most 80 characters.
    static func fileName(_ text: String) -> String {
        String(text.unicodeScalars.prefix(80).map { scalar in
            (scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" || scalar == ".")) ? Character(scalar) : "_"
        }).replacingOccurrences(of: "..", with: "__")
    }
}
