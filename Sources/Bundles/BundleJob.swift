import Foundation
import QuakeCommon
import QuakeTiles

/// The values `BundleBuilder` works with: what it builds from, what the thinning gives, what it built.
extension BundleBuilder {
    /// What a version's files are made from: its events, where they go, and what of the current
    /// version they build on.
    struct Job {
        /// The selection as read (`points` and `featureIDs` are those of its events).
        let read: SelectionRead.Result
        /// The ordered points; with a `recent` layer, only the history (the recent events go to their own file).
        let points: PointSet
        let featureIDs: FeatureIDs
        let options: ExportOptions
        /// The new version's (unpublished) directory.
        let directory: URL
        let recent: RecentLayer?
        let details: BundleDetails
        /// Where the previous export left its `ExportState` and where this one's is written.
        let state: StateFiles
        /// The older versions the tiles deltas are made from.
        let deltaBases: [DeltaWriter.Base]
        /// The current version, whose tiles are reused where their content is unchanged (and
        /// which the tiles deltas compare with); `nil` when none, or when its archives are damaged.
        let tilesBase: URL?
        /// A copy of the current version's `quakes.mbtiles`, patched into the new one.
        let previousMBTiles: PreviousFileCopy?
    }

    /// The events of a job thinned and their tiles made: what the archives are written from.
    struct Thinned {
        let job: Job
        let baked: TileBaker.Result
        let data: TileData
        /// The map's thinning (the recent events drawn at every zoom).
        let thinning: Thinning
        /// The tiles' thinning (the recent events left out).
        let tilesThinning: Thinning
        /// The previous export's state, when its tiles were reused.
        let reusable: ExportState?
        /// The current version's PMTiles, when its tiles were reused.
        let previousArchive: URL?
        let optionsDigest: UInt64
        /// What the event cache keeps of the thinning.
        let cacheUpdate: CacheUpdate
    }

    /// What the next export's event cache keeps of this one's thinning.
    struct CacheUpdate {
        /// Each event's minzoom in the map's thinning.
        let minZoom: [UInt8]
        /// Keys of the events whose feature id a collision moved.
        let movedKeys: [UInt64]
    }

    /// What `BundleBuilder.write` made: the tiles, the metadata and zooms the manifest lists, the warnings.
    struct Built {
        let baked: TileBaker.Result
        let metadata: TilesetMetadata
        let zooms: [ZoomSummary]
        let geoJSONZooms: [Int]
        /// The GeoJSON zooms copied from the current version (their points are as they were).
        let copiedGeoJSONZooms: [Int]
        let warnings: [String]
        /// The tiles deltas that could not be made.
        let deltaFailures: [DeltaWriter.Failure]
    }

    /// Where the export states are: the previous export's, and this one's until it is published.
    struct StateFiles {
        let file: URL
        let temporary: URL
        /// The name of the version directory this export publishes.
        let version: String
    }
}
