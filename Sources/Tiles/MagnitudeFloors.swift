import QuakeCommon

/// `--magnitude-floor z:M,...`: from zoom z on (up to the next entry) only events
/// with magnitude ≥ M are shown. Zooms before the first entry have no floor, and
/// the maximum zoom never has one (every event is shown there). Events without a
/// magnitude do not pass any floor.
public struct MagnitudeFloors: Hashable, Sendable, CustomStringConvertible {
    /// (zoom, minimum magnitude), sorted by zoom.
    public let entries: [Entry]

    /// One `z:M` pair.
    public struct Entry: Hashable, Sendable {
        public let zoom: Int
        public let magnitude: Double

        public init(zoom: Int, magnitude: Double) {
            self.zoom = zoom
            self.magnitude = magnitude
        }
    }

    /// No floors.
    public static let none = MagnitudeFloors(entries: [])

    public init(entries: [Entry]) {
        self.entries = entries.sorted { $0.zoom < $1.zoom }
    }

    /// Parses `0:6,3:5,5:4,7:3`. Throws a usage error naming the bad part.
    public init(parsing text: String) throws {
        var entries: [Entry] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count == 2,
                  let zoom = Int(pieces[0].trimmingSpaces), (0...ThinningOptions.zoomLimit).contains(zoom),
                  let magnitude = Double(pieces[1].trimmingSpaces), magnitude.isFinite else {
                throw QuakeBakeError("--magnitude-floor: `\(part)` is not zoom:magnitude (e.g. 0:6,3:5,5:4,7:3)", exitStatus: .usage)
            }
            guard !entries.contains(where: { $0.zoom == zoom }) else {
                throw QuakeBakeError("--magnitude-floor: zoom \(zoom) is given twice", exitStatus: .usage)
            }
            entries.append(Entry(zoom: zoom, magnitude: magnitude))
        }
        self.init(entries: entries)
    }

    /// The floor at `zoom`, or `nil` when every magnitude passes.
    public func floor(at zoom: Int) -> Double? {
        entries.last { $0.zoom <= zoom }?.magnitude
    }

    /// `0:6,3:5` (empty when there are none).
    public var description: String {
        entries.map { "\($0.zoom):\(formatMagnitude($0.magnitude))" }.joined(separator: ",")
    }

    private func formatMagnitude(_ m: Double) -> String {
        m == m.rounded() && abs(m) < 1e9 ? String(Int(m)) : "\(m)"
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
