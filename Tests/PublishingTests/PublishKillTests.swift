import Foundation
import QuakeBundleKit
import QuakeCommon
import QuakeHTTP
import Testing
import TestSupport

/// `kill -9` of a publish at random moments (issue 44.2, 44.7), while readers poll the
/// pointer as apps do: every pointer any reader finds, during a publish or after a killed
/// one, names objects that are all there with the named size and sha256.
///
/// A moment is a request of the publish, drawn at random: the publish reaches the store through
/// a relay that holds that request, and the publish is killed while it waits there. (Killed after
/// a random time instead, a loaded machine made most publishes end first, or all die at once.)
@Suite(.serialized) struct PublishKillTests {
    @Test func killedPublishesNeverLeaveReadersAnIncompleteVersion() async throws {
        let trials = ProcessInfo.processInfo.environment["QUAKE_BAKE_PUBLISH_KILLS"].flatMap(Int.init) ?? 20
        let store = try await SeaweedFS.sharedBucket()
        let directory = TemporaryDirectory("publish-kills")
        let workspace = try await PublishSupport.workspace(directory)
        let first = try PublishSupport.currentBundle(workspace)
        try await PublishSupport.revise(workspace, step: 1)
        let second = try PublishSupport.currentBundle(workspace)
        let credentials = try store.credentialsFile()
        let storePort = UInt16(try #require(store.endpoint.port))
        func arguments(_ bundle: URL, through relay: CuttingRelay? = nil) -> [String] {
            ["publish", "--workspace", workspace.path, "--bundle", bundle.path, "--to", store.target("maps"),
             "--endpoint", (relay?.url ?? store.endpoint).absoluteString, "--credentials-file", credentials.path, "--quiet"]
        }

        // Both versions in the store; then how many requests a publish that moves the pointer
        // between them makes (the last of these): the kills land at one of them.
        var requests = 0
        for bundle in [second, first, second] {
            let counter = try CuttingRelay(upstreamPort: storePort, at: CuttingRelay.requestLine, occurrence: .max, action: .hold)
            defer { counter.cut() }
            let run = try await QuakeBakeCLI.run(arguments(bundle, through: counter))
            #expect(run.status == 0, "\(run.standardError)")
            requests = counter.occurrences
        }
        try #require(requests > 0, "a publish made \(requests) requests")
        let readers = Readers(base: store.publicURL("maps/"))
        let polling = Task { await readers.poll() }
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))
        var random = SeededGenerator(seed: seed)
        var killed = 0
        for trial in 1...trials {
            let bundle = trial % 2 == 0 ? second : first
            let request = 1 + Int(random.nextUnit() * Double(requests))
            let relay = try CuttingRelay(upstreamPort: storePort, at: CuttingRelay.requestLine, occurrence: request, action: .hold)
            let run = try await QuakeBakeCLI.run(arguments(bundle, through: relay), killedWhen: { relay.isHolding })
            relay.cut()
            if run.killed { killed += 1 } else { #expect(run.status == 0, "trial \(trial) ended by itself with \(run.status)") }
            let problems = await readers.readOnce()
            #expect(problems.isEmpty, "trial \(trial), killed at request \(request) of \(requests): \(problems)")
        }
        let last = try await QuakeBakeCLI.run(arguments(second))
        #expect(last.status == 0, "\(last.standardError)")
        polling.cancel()
        _ = await polling.value
        let (reads, failures) = await readers.tally()
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(reads >= trials, "the readers read \(reads) pointers")
        #expect(killed >= trials / 2, "only \(killed) of \(trials) publishes were killed before they ended")
        #expect(try await PublishSupport.check(store, prefix: "maps").problems == [])
        print("publish kills (seed \(seed)): \(killed) of \(trials) killed mid-publish (a whole one makes \(requests) requests), "
              + "\(reads) pointers read by the polling readers, \(failures.count) incomplete")
    }

    /// Readers of a publication as an app is one: the pointer, then every object it names.
    actor Readers {
        let base: URL
        private var reads = 0
        private var failures: [String] = []

        init(base: URL) { self.base = base }

        /// Reads the publication until cancelled.
        func poll() async {
            while !Task.isCancelled {
                let problems = await readOnce()
                if Task.isCancelled { break }  // requests cut short by the end of the test, not problems
                failures += problems
            }
        }

        func tally() -> (Int, [String]) { (reads, failures) }

        /// Reads the pointer and every object it names; what was wrong (nothing when there is no pointer yet).
        func readOnce() async -> [String] {
            guard let answer = try? await PublishSupport.request(base.appendingPathComponent("current.json")), answer.status == 200 else { return [] }
            guard let pointer = try? JSONDecoder().decode(PublishedPointer.self, from: answer.body) else { return ["an unreadable pointer"] }
            reads += 1
            var problems: [String] = []
            let files = pointer.files + pointer.deltas.flatMap(\.files)
            for file in Dictionary(files.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a }).values {
                let object: HTTPResponse
                do {
                    object = try await PublishSupport.request(base.appendingPathComponent(file.key))
                } catch {
                    problems.append("\(pointer.bundleVersion): \(file.key) (\(file.name)) cannot be read: \(error)")
                    continue
                }
                guard object.status == 200 else {
                    problems.append("\(pointer.bundleVersion): \(file.key) (\(file.name)) answers \(object.status)")
                    continue
                }
                if object.body.count != file.bytes || SHA256.hex(object.body) != file.sha256 {
                    problems.append("\(pointer.bundleVersion): \(file.key) (\(file.name)) is not the object named")
                }
            }
            return problems
        }
    }
}
