import Foundation
import QuakeBundleFormat
import QuakeCatalog

/// What `style.json` draws under the quakes (`--basemap`, `export: basemap:` in the configuration).
public enum Basemap: String, CaseIterable, Sendable, Hashable {
    /// Natural Earth's land and Bird's PB2002 plate boundaries, from files shipped in the bundle
    /// (`land.geojson`, `plate-boundaries.geojson`; see `data/basemap/README.md`): the default.
    case naturalEarth = "natural-earth"
    /// None: for an app that brings its own basemap (the style draws the heat and the quakes over
    /// the background alone, and the bundle holds no basemap files).
    case none

    /// The bundle's files for it: name and bytes.
    var files: [(name: String, bytes: Data)] {
        switch self {
        case .naturalEarth:
            [(BundleFileName.land, Data(BasemapFiles.land.utf8)), (BundleFileName.plateBoundaries, Data(BasemapFiles.plateBoundaries.utf8))]
        case .none: []
        }
    }

    /// Writes its files into the bundle `directory`, each flushed to disk.
    func write(into directory: URL) throws {
        for file in files { try BundleBuilder.write(file.bytes, to: directory.appendingPathComponent(file.name)) }
    }
}
