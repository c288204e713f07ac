import Foundation
import GRDB
import Testing
import TestSupport

/// What `serve` listens on and what it refuses to show (issue 46): `--host` takes names and
/// IPv6 and prints a URL that opens, warns when it is not loopback, and names a mistake; CORS
/// headers only for what a map of another origin draws, and only when asked; a bundle whose
/// MBTiles metadata is impossible is refused when it is opened.
@Suite struct ServeRefusalTests {
    @Test func hostsAreNamesOrAddressesAndThePrintedURLOpens() async throws {
        let directory = TemporaryDirectory("serve-host")
        let root = try await ServeAttackTests.workspace(in: directory)
        let cases: [(host: String, url: String, everyInterface: Bool)] = [
            ("localhost", "http://localhost:", false), ("::1", "http://[::1]:", false), ("[::1]", "http://[::1]:", false),
            ("127.0.0.2", "http://127.0.0.2:", false), ("0.0.0.0", "http://127.0.0.1:", true), ("::", "http://[::1]:", true),
        ]
        for (index, c) in cases.enumerated() {
            let server = try ServeProcess(["--workspace", root, "--port", "0", "--host", c.host], log: directory.path("serve-\(index).log"))
            defer { server.stop() }
            #expect(server.url.absoluteString.hasPrefix(c.url), "--host \(c.host) printed \(server.url)")
            // The printed URL's host answers (a name: at one of its addresses).
            let host = server.url.host.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) } ?? ""
            let answers = (host == "localhost" ? ["127.0.0.1", "::1"] : [host]).compactMap { address in
                (try? RawSocket(port: server.port, host: address)).map { socket in
                    socket.send("GET /style.json HTTP/1.1\r\nHost: \(server.url.host ?? "")\r\nConnection: close\r\n\r\n")
                    return RawSocket.status(of: socket.readToEnd(silence: 30).data)
                }
            }
            #expect(answers.contains(200), "--host \(c.host): \(server.url) answered \(answers)")
            #expect(server.standardError.contains("not loopback: anyone who can reach this machine") == c.everyInterface, "\(server.standardError)")
            #expect(server.standardError.contains("listening on every interface") == c.everyInterface, "\(server.standardError)")
        }
        for (host, message) in [("300.1.1.1", "--host 300.1.1.1 is not an IPv4 address"), ("1.2.3", "--host 1.2.3 is not an IPv4 address"),
                                ("::zz", "--host ::zz is not an IPv6 address"), (" ", "--host is empty")] {
            let outcome = try await QuakeBakeCLI.run(["serve", "--workspace", root, "--port", "0", "--host", host])
            #expect(outcome.status == 64 && outcome.standardError.contains(message), "\(host): \(outcome.status) \(outcome.standardError)")
            #expect(!outcome.standardError.contains("Success"))
        }
    }

    @Test func corsHeadersOnlyForWhatMapsDrawAndOnlyWhenAsked() async throws {
        let directory = TemporaryDirectory("serve-cors")
        let server = try ServeProcess(["--workspace", try await ServeAttackTests.workspace(in: directory), "--port", "0"],
                                      log: directory.path("serve.log"))
        defer { server.stop() }
        let origin = "Origin: https://maps.example.org\r\n"
        let cases: [(String, String, String?)] = [
            ("/tiles/0/0/0.pbf", origin, "*"), ("/tiles/0/0/0.pbf", "", nil), ("/style.json", origin, "*"), ("/style.json", "", nil),
            ("/quakes.sqlite", origin, nil), ("/quakes.mbtiles", origin, nil), ("/manifest.json", origin, nil), ("/", origin, nil),
        ]
        for (path, headers, expected) in cases {
            let answer = try ServeAttackTests.get(port: server.port, path, headers: headers)
            #expect(RawSocket.status(of: answer) == 200, "\(path)")
            #expect(RawSocket.header("Access-Control-Allow-Origin", of: answer) == expected, "\(path) \(headers.isEmpty ? "without" : "with") Origin")
        }
        // The style's URLs take the request's Host only when it is a plain host[:port].
        let socket = try RawSocket(port: server.port)
        socket.send("GET /style.json HTTP/1.1\r\nHost: x\"><script>\r\nConnection: close\r\n\r\n")
        let answer = socket.readToEnd(silence: 30).data
        let body = try #require(answer.firstRange(of: Data("\r\n\r\n".utf8)).map { answer[$0.upperBound...] })
        let sources = try #require((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["sources"] as? [String: [String: Any]])
        #expect(sources["quakes"]?["tiles"] as? [String] == ["http://127.0.0.1:\(server.port)/tiles/{z}/{x}/{y}.pbf"])
    }

    /// Each edit of a copy of a real bundle's MBTiles metadata makes `serve` refuse it, naming
    /// the file and the value, before it listens (exit 65); the untouched copy is served.
    @Test func aBundleWithImpossibleMetadataIsRefusedWhenOpened() async throws {
        let directory = TemporaryDirectory("serve-zooms")
        let root = try await ServeAttackTests.workspace(in: directory)
        let current = URL(fileURLWithPath: root).appendingPathComponent("bundles/current").resolvingSymlinksInPath()
        let cases: [(String, String)] = [
            ("UPDATE metadata SET value = '5' WHERE name = 'minzoom'; UPDATE metadata SET value = '2' WHERE name = 'maxzoom'",
             "the MBTiles metadata minzoom 5 is above maxzoom 2"),
            ("UPDATE metadata SET value = '99' WHERE name = 'maxzoom'", "the MBTiles metadata maxzoom \"99\" is not a zoom 0…24"),
            ("UPDATE metadata SET value = '-1' WHERE name = 'minzoom'", "the MBTiles metadata minzoom \"-1\" is not a zoom 0…24"),
            ("DELETE FROM metadata WHERE name = 'maxzoom'", "the MBTiles metadata has no maxzoom"),
            ("UPDATE metadata SET value = '-190,0,10,10' WHERE name = 'bounds'", "bounds -190,0,10,10 are not west,south,east,north on the globe"),
            ("UPDATE metadata SET value = '0,95,2' WHERE name = 'center'", "center 0,95,2 is not longitude,latitude[,zoom] on the globe"),
            ("UPDATE metadata SET value = 'nan,1,2,3' WHERE name = 'bounds'", "bounds \"nan,1,2,3\" is not 4 numbers"),
            ("UPDATE metadata SET value = 'png' WHERE name = 'format'", "format \"png\" is not pbf"),
        ]
        for (index, (edit, message)) in cases.enumerated() {
            let copy = directory.path("bundle-\(index)")
            try FileManager.default.copyItem(at: current, to: copy)
            let queue = try DatabaseQueue(path: copy.appendingPathComponent("quakes.mbtiles").path)
            try await queue.write { try $0.execute(sql: edit) }
            let outcome = try await QuakeBakeCLI.run(["serve", "--bundle", copy.path, "--port", "0"])
            #expect(outcome.status == 65, "\(edit): \(outcome.status) \(outcome.standardError)")
            #expect(outcome.standardError.contains(copy.appendingPathComponent("quakes.mbtiles").path) && outcome.standardError.contains(message),
                    "\(outcome.standardError)")
        }
        let untouched = directory.path("bundle-untouched")
        try FileManager.default.copyItem(at: current, to: untouched)
        let server = try ServeProcess(["--bundle", untouched.path, "--port", "0"], log: directory.path("serve.log"))
        defer { server.stop() }
        #expect(RawSocket.status(of: try ServeAttackTests.get(port: server.port, "/tiles/0/0/0.pbf")) == 200)
    }
}
