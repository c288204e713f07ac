import Foundation
import QuakeCommon

/// What one child export measured, and its row of the Markdown table.
struct ExportFigures: Codable {
    var events: Int
    var seconds: Double
    /// CPU time of the child process (user and system, every thread).
    var cpuSeconds: Double
    /// The one-minute load average when the export started (the two cores are shared).
    var load: String
    var tiles: Int
    var encoded: Int
    var reused: Int
    var bytes: Int
    var pmtilesBytes: Int
    var largestTile: Int
    var warnings: Int
    var peakResidentBytes: Int

    static let header = """
        | run | events | max zoom | index | peak RSS (index) | export | export CPU | load | index + export | tiles | tiles/s | encoded / reused | peak RSS (export) | bundle | of which PMTiles | largest tile | size-guard cuts |
        |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
        """

    /// A row that only says something about `run`.
    static func note(_ run: String, _ text: String) -> String {
        "| \(run) | \(text) |" + String(repeating: " |", count: 15)
    }

    /// The row of run `label`; `index` is what indexing its input took (that of the changes alone for an incremental run).
    func row(_ label: String, maxZoom: Int, index figures: IndexFigures?) -> String {
        let index = figures.map { String(format: "%.1f s", $0.seconds) } ?? "–"
        let indexPeak = figures.map { Format.bytes($0.peakResidentBytes) } ?? "–"
        let total = figures.map { String(format: "%.1f s", $0.seconds + seconds) } ?? "–"
        return "| \(label) | \(Format.count(events)) | \(maxZoom) | \(index) | \(indexPeak) | \(String(format: "%.2f s", seconds)) "
            + "| \(String(format: "%.2f s", cpuSeconds)) | \(load) | \(total) "
            + "| \(Format.count(tiles)) | \(Format.count(Int(Double(tiles) / seconds))) | \(Format.count(encoded)) / \(Format.count(reused)) "
            + "| \(Format.bytes(peakResidentBytes)) | \(Format.bytes(bytes)) | \(Format.bytes(pmtilesBytes)) | \(Format.bytes(largestTile)) | \(warnings) |"
    }
}
