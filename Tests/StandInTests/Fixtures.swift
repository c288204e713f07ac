import Foundation
#if canImport(Glibc)
import Glibc
#endif
import QuakeCatalog
import TestSupport

/// The stand-in most read-only tests share (started once per test run), and what it
/// must serve, computed straight from the files it loaded.
enum Fixtures {
    /// Real samples: three saved FDSN query answers, a GeoJSON feed and a CSV feed that
    /// overlaps one of the queries (with real preferred-id changes between them).
    static let files = [
        "query-conus-m2.5-2019.geojson.gz",
        "query-m4.5-2010-2020-sample.geojson.gz",
        "query-m4.5-2020-2024-antimeridian-window.geojson.gz",
        "feed-all_week-2018-06.geojson.gz",
        "feed-2.5_month-2019-07.csv.gz",
    ].map(TestData.usgs)

    /// The service clock of the shared stand-in: the moment of the error example in docs/usgs-fdsn.md.
    static let now = "2026-07-26T10:06:54Z"

    static let shared = Result { try StandInProcess(catalogs: files, now: now) }

    /// The catalog the shared stand-in must serve.
    static let catalog = Expected.merged(files)
}

/// Expected answers, computed directly from the sample files.
enum Expected {
    /// The files' events merged as the service keeps them: an event replaces the events that
    /// share any id with it only when it is strictly newer than all of them.
    static func merged(_ files: [URL]) -> [QuakeEvent] {
        var byKey: [String: QuakeEvent] = [:]
        var keyOfId: [String: String] = [:]
        for file in files {
            for event in CatalogFile.read(file).events {
                let rivalKeys = Set(event.allIds.compactMap { keyOfId[$0] })
                if rivalKeys.contains(where: { byKey[$0]!.updated >= event.updated }) { continue }
                for key in rivalKeys { byKey[key] = nil }
                byKey[event.id] = event
                for id in event.allIds { keyOfId[id] = event.id }
            }
        }
        return Array(byKey.values)
    }

    /// ms since 1970 for an ISO time in a test.
    static func ms(_ iso: String) -> Int64 { ISOTime.parse(iso)! }

    /// Ids of a GeoJSON answer, in order: a `memchr` scan for the features' `"id":"…"` members
    /// (the only members so named), much faster than reading whole events in a debug build.
    static func ids(_ data: Data) -> [String] {
        let key = Array(#""id":""#.utf8)
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [String] in
            guard let base = raw.baseAddress else { return [] }
            var ids: [String] = []
            var offset = 0
            while offset + key.count <= raw.count, let quote = memchr(base + offset, 0x22, raw.count - offset) {
                let at = UnsafeRawPointer(quote) - base
                guard at + key.count <= raw.count else { break }
                guard memcmp(quote, key, key.count) == 0 else { offset = at + 1; continue }
                let start = at + key.count
                guard let close = memchr(base + start, 0x22, raw.count - start) else { break }
                let end = UnsafeRawPointer(close) - base
                ids.append(String(decoding: raw[start..<end], as: UTF8.self))
                offset = end + 1
            }
            return ids
        }
    }
}
