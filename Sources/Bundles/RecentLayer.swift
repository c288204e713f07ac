import Foundation
import QuakeBundleFormat
import QuakeCatalog
import QuakeCommon
import QuakeTiles

/// The recent layer (`--recent-days N` or `auto`, the default): the events of the last N to 2N days are kept out
/// of the tiles and drawn from `recent.geojson` (or, in an app, from its own `events` rows
/// with `time >= since`), every one at every zoom.
///
/// Why: almost every change a cron run brings is to recent events, and a changed event
/// changes every tile that draws or summarises it, at every zoom, up to the 500 KB of a
/// busy tile: with recent events in the tiles, a delta after 100 changes is some 3% of
/// the bundle. Kept apart, those changes touch only app rows and this small file, and the
/// tiles (the history) change when the boundary moves: once every N days, not every run.
///
/// The boundary `since` is a whole multiple of N days since 1970 (UTC), the latest one at
/// least N days before the newest event of the selection: so the recent layer holds
/// between N and 2N days of events, and the boundary depends on the events alone (the
/// same store gives the same bundle whenever it is exported).
public struct RecentLayer: Sendable {
    /// The first origin time (ms since 1970 UTC) of the recent layer.
    let since: Int64
    /// The recent events, most important first (magnitude descending, unknown last, then newer, then id).
    let events: [Int]
    /// Per event of the table: true when it is history, in the tiles.
    let history: [Bool]

    /// Under `--recent-days auto`, the most of the selection the recent layer may hold: one
    /// event in `autoShare`, and at most `autoMaximumEvents` (every one of them is drawn at
    /// every zoom, unthinned, and the preview carries them all).
    public static let autoShare = 10
    public static let autoMaximumEvents = 10_000

    /// The recent layer `choice` makes of `table`, if any: none for an empty selection (no
    /// newest event to count from); under `auto`, one of `RecentDays.autoDays` days when it
    /// holds a small part of the selection, so that a catalog of weeks keeps every quake in
    /// the tiles and the map thinned.
    static func chosen(_ choice: RecentDays, table: EventTable) -> RecentLayer? {
        guard table.count > 0 else { return nil }
        switch choice {
        case .off: return nil
        case .days(let days): return RecentLayer(table: table, days: days)
        case .auto:
            let layer = RecentLayer(table: table, days: RecentDays.autoDays)
            let recent = layer.events.count
            return recent * autoShare <= table.count && recent <= autoMaximumEvents ? layer : nil
        }
    }

    /// The split of `table`'s events with a recent layer of `days` days.
    init(table: EventTable, days: Int) {
        let newest = table.time.max() ?? 0
        since = Self.boundary(newest: newest, days: days)
        var history = [Bool](repeating: true, count: table.count)
        var events: [Int] = []
        for e in 0..<table.count where table.time[e] >= since {
            history[e] = false
            events.append(e)
        }
        events.sort { a, b in
            let ma = table.magnitude[a], mb = table.magnitude[b]
            if ma.isNaN != mb.isNaN { return mb.isNaN }
            if !ma.isNaN && ma != mb { return ma > mb }
            if table.time[a] != table.time[b] { return table.time[a] > table.time[b] }
            return table.idPrecedes(a, b)
        }
        self.events = events
        self.history = history
    }

    /// The latest whole multiple of `days` days (since 1970) that is at least `days` days before `newest`.
    public static func boundary(newest: Int64, days: Int) -> Int64 {
        let period = Int64(days) * 86_400_000
        let latest = newest - period
        let quotient = latest / period - (latest % period < 0 ? 1 : 0)  // floor, for times before 1970 too
        return quotient * period
    }

    /// Writes `recent.geojson`: a FeatureCollection of the recent events (exact positions, the
    /// chosen attributes, `minzoom` the lowest zoom) as the GeoJSON zooms write them, uncompressed
    /// so that MapLibre (GL JS and Native) reads it from disk or a plain web server.
    func write(table: EventTable, thinning: Thinning, zoom: Int, into directory: URL) throws {
        let layer = ZoomLayer(zoom: zoom, events: events, clusters: [])
        let url = directory.appendingPathComponent(BundleFileName.recent)
        try Data(GeoJSONZoomWriter.text(layer, table: table, thinning: thinning)).write(to: url)
        SQLiteBuild.fsync(url)
    }

    /// The manifest's `recent` member.
    var json: JSON {
        .object([("file", .string(BundleFileName.recent)), ("since", .string(ISOTime.format(milliseconds: since))),
                 ("since_ms", .int(since)), ("events", .int(events.count))])
    }
}
