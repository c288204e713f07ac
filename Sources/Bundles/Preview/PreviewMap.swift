import QuakeCatalog
import QuakeTiles

extension PreviewWriter {
    /// The level of the world grid the page's heat counts come in: cells of 8 pixels at zoom 3 and
    /// 16 at zoom 4, the last zoom with heat (the page adds them up into the tiles' 8-pixel cells
    /// below zoom 3). Half the cells of the tiles' zoom 4, for a page a person downloads whole.
    static let heatLevel = HeatLayer.maxZoom + HeatLayer.cellBits - 1

    /// `"map"`: the layers `style.json` draws besides the quakes (`MapLayers`: the same JSON), the
    /// data they draw (the basemap's GeoJSON, absent with `--basemap none`; the tiles' events
    /// counted per cell of the `heatLevel` grid, `[column, row, count, …]` flat, and the level of
    /// the tiles' cells below a zoom, `cellBits`) and the credits.
    static func writeMap(_ data: inout JSONBytes, points: PointSet, basemap: Basemap) {
        let layers = (basemap == .none ? [] : MapLayers.basemap) + [MapLayers.heat]
        data.raw(",\"map\":{\"layers\":")
        data.raw(JSON.array(layers).text)
        data.raw(",\"land\":")
        data.raw(basemap == .none ? "null" : BasemapFiles.land)
        data.raw(",\"plates\":")
        data.raw(basemap == .none ? "null" : BasemapFiles.plateBoundaries)
        data.raw(",\"attribution\":")
        let credits = ["Earthquakes: U.S. Geological Survey, ComCat"]
            + (basemap == .none ? [] : [MapLayers.landAttribution, MapLayers.plateBoundariesAttribution])
        data.raw(JSON.array(credits.map(JSON.string)).text)
        data.raw(",\"heat\":{\"level\":")
        data.integer(Int64(heatLevel))
        data.raw(",\"cellBits\":")
        data.integer(Int64(HeatLayer.cellBits))
        data.raw(",\"cells\":[")
        for (k, cell) in HeatLayer.worldCells(points: points, level: heatLevel).enumerated() {
            if k > 0 { data.raw(",") }
            data.integer(Int64(cell.column))
            data.raw(",")
            data.integer(Int64(cell.row))
            data.raw(",")
            data.integer(Int64(cell.count))
        }
        data.raw("]}}")
    }
}
