import QuakeCommon

/// How events are thinned per zoom and how big a tile may get.
public struct ThinningOptions: Hashable, Sendable {
    /// The deepest zoom quake-bake builds.
    public static let zoomLimit = 16

    /// Lowest zoom built (`--min-zoom`).
    public var minZoom = 0
    /// Highest zoom built (`--max-zoom`); every selected event is shown there.
    public var maxZoom = 10
    /// How events are chosen per zoom below the maximum (`--thinning`).
    public var method = Method.spacing
    /// Grid cell size in pixels of a 256-pixel tile (`--cell-size`): a power of two from 4 to 256.
    /// The grid method keeps `perCell` events per cell; every method summarises per cell in clusters.
    public var cellSize = 64
    /// Events kept per grid cell below the maximum zoom by the grid method (`--per-cell`).
    public var perCell = 1
    /// Minimum magnitude per zoom (`--magnitude-floor`).
    public var magnitudeFloors = MagnitudeFloors.none
    /// Keep every Nth candidate in time order at each zoom below the maximum (`--stride`; 1 = off).
    public var stride = 1
    /// Whether hidden events are summarised as cluster features (`--clusters` / `--no-clusters`).
    public var clusters = true
    /// Largest gzip-compressed tile allowed, in bytes.
    public var maxTileBytes = 500_000
    /// Most features (events and clusters) allowed in one tile.
    public var maxTileFeatures = 200_000

    public init() {}

    /// How a zoom below the maximum chooses its events among those its floors and stride leave.
    public enum Method: String, CaseIterable, Hashable, Sendable {
        /// Biggest first and evenly spaced on screen, so every place with quakes shows at every zoom
        /// (the default; see `SpacingSweep`).
        case spacing
        /// The magnitude-priority grid: the `perCell` most important events of each grid cell.
        case grid
        /// No thinning by position: floors and stride alone.
        case none
    }

    /// log2 of grid cells per tile side: 256 / cellSize = 2^cellBits.
    public var cellBits: Int { (256 / cellSize).trailingZeroBitCount }

    /// Checks the options against each other (each alone: its declaration, `QuakeBundles.ExportOption`);
    /// throws a usage error naming them.
    public func validate() throws {
        func fail(_ message: String) -> QuakeBakeError { QuakeBakeError(message, exitStatus: .usage) }
        guard minZoom <= maxZoom else { throw fail("--min-zoom must be 0…\(maxZoom) (the max zoom), not \(minZoom)") }
        let cellsPerTile = 1 << (2 * cellBits)
        guard maxTileFeatures > cellsPerTile else {
            throw fail("the tile feature limit (\(maxTileFeatures)) must exceed the grid cells per tile (\(cellsPerTile))")
        }
    }
}
