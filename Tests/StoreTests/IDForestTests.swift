import Foundation
@testable import QuakeStore
import Testing

/// The in-memory id directory of a fresh build (`IDForest` behind `MemoryIDDirectory`): the
/// same answers as the `event_ids` table would give, at sizes where its table grows many times.
@Suite struct IDForestTests {
    @Test func everyIDFindsItsGroupAfterTheTableGrew() throws {
        let directory = MemoryIDDirectory(expectedIDs: 16)  // far too small: every segment grows
        let events = 60_000
        for n in 0..<events {
            try directory.map("us\(n)", to: "us\(n)")
            if n % 3 == 0 { try directory.map("at\(n)", to: "us\(n)") }
        }
        for n in stride(from: 0, to: events, by: 7) {
            #expect(directory.preferred(of: "us\(n)") == "us\(n)")
            #expect(directory.preferred(of: "at\(n)") == (n % 3 == 0 ? "us\(n)" : nil))
        }
        #expect(directory.preferred(of: "us\(events)") == nil)
    }

    @Test func aRedirectMovesTheWholeGroupAndOnlyIt() throws {
        let directory = MemoryIDDirectory(expectedIDs: 8)
        try directory.map("ci1", to: "ci1")
        try directory.map("us1", to: "ci1")
        try directory.map("nc1", to: "nc1")
        try directory.redirect(from: "ci1", to: "nc1")
        #expect(directory.preferred(of: "ci1") == "nc1")
        #expect(directory.preferred(of: "us1") == "nc1")
        // ci1 named a group; after the redirect it names none: a new group of that name starts afresh.
        try directory.map("ak1", to: "ci1")
        #expect(directory.preferred(of: "ak1") == "ci1")
        #expect(directory.preferred(of: "us1") == "nc1")
        // Re-pointing one id moves only that id.
        try directory.map("us1", to: "ak1")
        #expect(directory.preferred(of: "us1") == "ak1")
        #expect(directory.preferred(of: "ci1") == "nc1")
    }

    @Test func idsAreToldApartByTheirBytesAndListedInByteOrder() throws {
        let directory = MemoryIDDirectory(expectedIDs: 8)
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"  // equal as Swift Strings, not as bytes
        let ids = ["ab", "ab\u{0}", "abc", "a", "b", composed, decomposed, "us7000abcdefghijklmnop", "us7000abcdefghijklmnoo", "Z", ""]
        for id in ids where !id.isEmpty { try directory.map(id, to: id == "a" ? "a" : "b") }
        #expect(directory.preferred(of: composed) == "b")
        #expect(directory.preferred(of: "cafe") == nil)
        directory.sortMapping()
        var listed: [(String, String)] = []
        var batches: [Int] = []
        directory.forEachMapping(batch: 4) { pairs in
            batches.append(pairs.count)
            for pair in pairs {
                listed.append((String(decoding: pair.id, as: UTF8.self), String(decoding: pair.preferred, as: UTF8.self)))
            }
        }
        #expect(batches == [4, 4, 2])
        let expected = ids.filter { !$0.isEmpty }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(listed.map { Array($0.0.utf8) } == expected.map { Array($0.utf8) })
        #expect(listed.allSatisfy { $0.1 == ($0.0 == "a" ? "a" : "b") })
    }
}
