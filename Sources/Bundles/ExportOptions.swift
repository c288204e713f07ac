import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeTiles

/// Which events of the store a bundle holds.
public struct Selection: Hashable, Sendable {
    /// Earliest origin time, ms since 1970 UTC, inclusive (`--since`).
    public var since: Int64?
    /// Latest origin time, ms since 1970 UTC, exclusive (`--until`).
    public var until: Int64?
    /// Smallest magnitude (`--min-magnitude`); events without one are left out when set.
    public var minMagnitude: Double?
    /// Area (`--bbox`).
    public var bbox: BoundingBox?
    /// Event types (`--event-type`); empty means every type.
    public var eventTypes: [String] = []

    public init() {}

    /// Checks that the times are in order (each option alone: `ExportOption`); throws a usage error naming them.
    public func validate() throws {
        if let since, let until, until <= since {
            throw QuakeBakeError("--until (\(ISOTime.format(milliseconds: until))) must be after --since (\(ISOTime.format(milliseconds: since)))",
                                 exitStatus: .usage)
        }
    }
}

/// Everything `quake-bake export` can be told.
public struct ExportOptions: Hashable, DeclaredOptions {
    /// Which events.
    public var selection = Selection()
    /// How they are thinned per zoom.
    public var thinning = ThinningOptions()
    /// Feature attributes in the tiles and GeoJSON (`--attributes`).
    public var attributes = EventAttribute.defaults
    /// Zooms with at most this many features (events and clusters) get a GeoJSON file and a preview layer.
    public var geoJSONMaxFeatures = 50_000
    /// The tileset name in the MBTiles and PMTiles metadata (`--name`).
    public var name = "quakes"
    /// The user's own style for `style.json` (`--style`); `nil`: the default style.
    public var style: StyleTemplate?
    /// What the default style draws under the quakes, from files written into the bundle (`--basemap`).
    public var basemap = Basemap.naturalEarth
    /// Bundle versions kept after publishing, the new one included (`--keep`).
    public var keep = 3
    /// Write deltas from the older versions kept, for apps that update by delta (off with `--no-deltas`).
    public var deltas = true
    /// Keep the events of the last N to 2N days out of the tiles, in a recent layer of their own
    /// (`--recent-days`; see `RecentLayer`): deltas stay small when only recent events change.
    public var recentDays = RecentDays.auto
    /// Start from the current bundle (off with `--full`; the content is the same either way): read
    /// only the store rows that changed since it was made, reuse its unchanged tiles, and patch
    /// copies of its app database and MBTiles.
    public var reuseTiles = true

    public init() {}

    /// Checks the options, each as its `ExportOption` declares and then against each other;
    /// throws a usage error naming the bad one.
    public func validate() throws {
        try OptionDeclaration.check(self, against: ExportOption.all.map(\.declaration))
        try selection.validate()
        try thinning.validate()
    }

    /// The options that shape the bundle's content, as written into the manifest.
    var contentJSON: JSON { ExportOption.manifestJSON(of: self) }
}
