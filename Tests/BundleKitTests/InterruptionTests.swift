import Foundation
import QuakeBundleKit
import QuakeCommon
import Testing
import TestSupport

/// Issue 45.1 and 45.6, on publications the real `quake-bake publish` made in the real store
/// (SeaweedFS): `quake-bake pull` killed (SIGKILL) at random moments leaves a bundle that opens
/// and equals the old version or the new one, never a mix; the next pull finishes, resuming the
/// download it cut short. A connection cut mid-body is resumed within the same pull.
@Suite(.onAThreadOfItsOwn) struct PullInterruptionTests {
    @Test func pullKilledAtRandomMomentsLeavesTheOldOrTheNewVersion() async throws {
        let store = try await SeaweedFS.sharedBucket()
        let dir = TemporaryDirectory("client-kill")
        let versions = try await ExportedVersions(in: dir.url)
        try await versions.revise()
        let publication = StorePublication(store: store, workspace: versions.workspace, prefix: "maps")
        try await publication.publish(versions.directories[0])
        let held = dir.path("held-v1")
        _ = try await BundleClient(source: publication.url, directory: held).update()
        let pointer = try await publication.publish(versions.directories[1])
        #expect(pointer.deltas.map(\.baseVersion) == [versions.versions[0]], "\(pointer.deltas)")
        // In front of the store, a slow link, so that most of a pull is downloading and the kills land
        // all through it (1 MB/s: an install's 2.4 MB take 2.4 s, against a few tenths of a second of
        // the pull's own work; at 400 KB/s the trials ended the quick loop, alone, 15 s after the rest).
        let server = try ObjectServer(upstream: publication.url, rate: 1_000_000)
        // The reruns after each kill, at full speed: what they show (the next pull finishes, resuming
        // what the kill left) does not need the slow link, and the trials run one after another.
        let fast = try ObjectServer(upstream: publication.url)
        func pull(from server: ObjectServer, to app: URL) -> [String] {
            ["pull", "--from", server.url.absoluteString, "--to", app.path, "--quiet"]
        }

        let seed = ProcessInfo.processInfo.environment["QUAKE_BAKE_KILL_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64(UInt32.max))
        var random = SeededGenerator(seed: seed)
        print("pull kill trials: seed \(seed) (QUAKE_BAKE_KILL_SEED replays them)")
        // How long each kind of pull takes uninterrupted: the kills land anywhere from the start to a little past the end.
        var took: [Bool: Double] = [:]
        for fromOld in [false, true] {
            let app = dir.path(fromOld ? "timed-update" : "timed-install")
            if fromOld { try FileManager.default.copyItem(at: held, to: app) }
            let started = Date()
            _ = try await QuakeBakeCLI.run(pull(from: server, to: app)).checked()
            took[fromOld] = Date().timeIntervalSince(started)
        }
        // The biggest object an install downloads.
        let biggestObject = max(2, pointer.files.filter { BundleFileSelection.app.contains($0.name) }.map(\.bytes).max() ?? 2)
        var kills = 0, trials = 0, resumed = 0, states: [String: Int] = [:]
        let newVersion = versions.versions[1]
        while kills < 20 && trials < 80 {
            trials += 1
            let app = dir.path("app-\(trials)")
            // Four kinds of trial: an install or an update (of v1 by deltas) killed at a random moment
            // of its run; an update killed just after its switch; an install killed while it assembles.
            let kind = trials % 4
            let fromOld = kind % 2 == 1
            if fromOld { try FileManager.default.copyItem(at: held, to: app) }
            let after = random.nextUnit() * took[fromOld]! * 1.2
            let deadline = Date().addingTimeInterval(after)
            let current = app.appendingPathComponent("current")
            let staging = app.appendingPathComponent("versions/.\(newVersion).qbtmp/quakes.sqlite")
            // An install is killed once a random number of bytes has come down (its time varies
            // too much with the machine's load to aim at the download by the clock alone).
            let downloadedTarget = Int64.random(in: 1..<biggestObject, using: &random)
            let downloads = app
            let moment: @Sendable () -> Bool = switch kind {
            case 0: { ((try? Self.partials(in: downloads)) ?? [:]).values.reduce(0, +) >= downloadedTarget || Date() >= deadline }
            case 2: { (try? FileManager.default.destinationOfSymbolicLink(atPath: current.path)) == "versions/\(newVersion)" }
            case 3: { FileManager.default.fileExists(atPath: staging.path) }
            default: { Date() >= deadline }
            }
            let run = try await QuakeBakeCLI.run(pull(from: server, to: app), killedWhen: moment)
            guard run.killed else { continue }
            kills += 1

            // What the kill left: no bundle (a new install killed early), or the old one, or the new one, whole.
            var state = "no bundle"
            if FileManager.default.fileExists(atPath: current.path) {
                let version = try QuakeBundle(directory: current).version
                let index = try #require(versions.versions.firstIndex(of: version), "trial \(trials): version \(version)")
                #expect(fromOld || index == 1, "trial \(trials): a new install killed holds \(version)")
                let comparison = try await BundleWitness.compare(current, versions.directories[index])
                #expect(comparison.mismatches == 0, "trial \(trials), killed after \(after) s: \(comparison)")
                state = index == 0 ? "old" : "new"
            } else {
                #expect(!fromOld, "trial \(trials): the held version is gone")
            }
            states[state, default: 0] += 1

            // The next pull finishes, going on from the partial download the kill left.
            let partials = try Self.partials(in: app)
            let rerunStarted = Date()
            let rerun = try await QuakeBakeCLI.run(pull(from: fast, to: app))
            #expect(rerun.status == 0, "trial \(trials): \(rerun)")
            let comparison = try await BundleWitness.compare(current, versions.directories[1])
            #expect(comparison.mismatches == 0, "trial \(trials), after the rerun: \(comparison)")
            let requests = try fast.requests(since: rerunStarted)
            for (sha256, size) in partials where size > 0 {
                let asked = requests.first { $0.path.contains(sha256) }
                #expect(asked == nil || asked?.range == "bytes=\(size)-", "trial \(trials): \(sha256) held \(size) bytes, asked \(String(describing: asked))")
                if asked?.range != nil { resumed += 1 }
            }
        }
        print("pull kill trials: \(kills) kills in \(trials) runs (an update takes \(took[true]!) s, an install \(took[false]!) s); left \(states); \(resumed) downloads resumed")
        #expect(kills >= 20, "only \(kills) of \(trials) runs were killed before they ended")
        #expect(resumed > 0, "no kill left a partial download to resume (\(states))")
        #expect(states["new", default: 0] > 0 && states["old", default: 0] > 0, "\(states)")
    }

    /// A connection cut twice in the middle of the app database's body: the same update asks for the
    /// rest each time (`Range: bytes=N-`), and gets the version exactly, having downloaded it once.
    @Test func aDownloadCutShortResumesWhereItStopped() async throws {
        let store = try await SeaweedFS.sharedBucket()
        let dir = TemporaryDirectory("client-cut")
        let versions = try await ExportedVersions(in: dir.url)
        let publication = StorePublication(store: store, workspace: versions.workspace, prefix: "maps")
        let pointer = try await publication.publish(versions.directories[0])
        let database = try #require(pointer.files.first { $0.name == "quakes.sqlite" })
        #expect(database.encoding == "gzip" && database.bytes > 80_000, "\(database)")
        // A proxy in front of the store cuts the connection; the store answers the Range requests.
        let server = try ObjectServer(upstream: publication.url, cuts: ["\(database.sha256):40000:2"])
        let client = BundleClient(source: server.url, directory: dir.path("app"))

        let update = try await client.update()
        #expect(update.way == .full)
        let comparison = try await BundleWitness.compare(client.currentDirectory, versions.directories[0])
        #expect(comparison.mismatches == 0, "\(comparison)")
        let asked = try server.requests().filter { $0.path.contains(database.sha256) }
        #expect(asked.map(\.range) == [nil, "bytes=40000-", "bytes=80000-"], "\(asked)")
        #expect(asked.map(\.status) == [200, 206, 206] && asked.map(\.bytes).reduce(0, +) == database.bytes, "\(asked)")
    }

    /// The partial downloads in an app directory: sha256 → bytes held.
    private static func partials(in app: URL) throws -> [String: Int64] {
        let downloads = app.appendingPathComponent("downloads")
        var found: [String: Int64] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? [] where name.hasSuffix(".part") {
            let size = try FileManager.default.attributesOfItem(atPath: downloads.appendingPathComponent(name).path)[.size] as? NSNumber
            found[String(name.dropLast(5))] = size?.int64Value ?? 0
        }
        return found
    }
}
