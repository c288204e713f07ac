import Foundation
import QuakeCatalog
import QuakeTiles
import Testing

/// Thinning checked against brute force over real events, computed without QuakeTiles' orderings
/// (the grid and none methods, the guard, clusters; the spacing method in SpacingThinningTests).
@Suite struct ThinningTests {
    static let events = TilesFixture.events(["query-conus-m2.5-2019.geojson.gz", "feed-all_week-2020-06.geojson.gz", "query-m6-1973-2023.csv.gz"])

    private func thin(_ configure: (inout ThinningOptions) -> Void) -> (ThinningOptions, PointSet, Thinning) {
        var options = ThinningOptions()
        options.maxZoom = 9
        configure(&options)
        let points = PointSet(table: TilesFixture.table(Self.events), buildTimeOrder: options.stride > 1)
        return (options, points, Thinning(points: points, options: options))
    }

    @Test(arguments: [(64, 1, ""), (32, 3, ""), (128, 2, "0:6,3:5,5:4,7:3")])
    func eachCellShowsItsMostImportantEvents(cellSize: Int, perCell: Int, floors: String) throws {
        let (options, _, thinning) = thin {
            $0.method = .grid
            $0.cellSize = cellSize
            $0.perCell = perCell
            $0.magnitudeFloors = try! MagnitudeFloors(parsing: floors.isEmpty ? "0:-99" : floors)
        }
        let priority = TilesFixture.priorityOrder(Self.events)
        #expect(thinning.minZoom.allSatisfy { $0 <= 9 }, "every event is shown at the max zoom")
        for zoom in 0..<options.maxZoom {
            let floor = options.magnitudeFloors.floor(at: zoom) ?? -.infinity
            var taken: [[Int]: Int] = [:]
            var expected = Set<Int>()
            for e in priority where (Self.events[e].mag ?? -.infinity) >= floor {
                let cell = TilesFixture.cell(Self.events[e], zoom: zoom, cellSize: cellSize)
                if taken[cell, default: 0] < perCell {
                    taken[cell, default: 0] += 1
                    expected.insert(e)
                }
            }
            let shown = Set(thinning.minZoom.indices.filter { thinning.minZoom[$0] <= zoom })
            #expect(shown == expected, "zoom \(zoom): \(shown.symmetricDifference(expected).count) events differ")
        }
    }

    @Test func strideKeepsEveryNthEventInTimeOrder() {
        let (options, _, thinning) = thin { $0.stride = 3; $0.method = .none; $0.maxZoom = 6 }
        var deeper = Array(Self.events.indices)
        for zoom in stride(from: options.maxZoom - 1, through: 0, by: -1) {
            deeper.sort { a, b in
                let ea = Self.events[a], eb = Self.events[b]
                return ea.time! != eb.time! ? ea.time! < eb.time! : Array(ea.id.utf8).lexicographicallyPrecedes(Array(eb.id.utf8))
            }
            let expected = deeper.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
            let shown = thinning.minZoom.indices.filter { thinning.minZoom[$0] <= zoom }
            #expect(Set(shown) == Set(expected), "zoom \(zoom)")
            deeper = expected
        }
    }

    @Test func theFeatureGuardKeepsTheMostImportantEventsOfAFullTile() {
        let (options, points, thinning) = thin { $0.method = .grid; $0.maxZoom = 6; $0.maxTileFeatures = 300 }
        #expect(!thinning.actions.isEmpty)
        let rank = TilesFixture.priorityOrder(Self.events).enumerated().reduce(into: [Int: Int]()) { $0[$1.element] = $1.offset }
        for zoom in 0...options.maxZoom {
            for run in TileRun.all(points: points, zoom: zoom) {
                let members = run.range.map { Int(points.order[$0]) }
                let shown = members.filter { thinning.minZoom[$0] <= zoom }
                let content = TileContent(run: run, points: points, minZoom: thinning.minZoom, options: options)
                #expect((content?.featureCount ?? 0) <= 300)
                if thinning.actions.contains(where: { $0.tile == run.key }) {
                    let worstShown = shown.map { rank[$0]! }.max() ?? -1
                    let bestCut = members.filter { thinning.minZoom[$0] > zoom && thinning.minZoom[$0] != Thinning.never || zoom == options.maxZoom && thinning.minZoom[$0] == Thinning.never }
                        .map { rank[$0]! }.min() ?? .max
                    #expect(worstShown < bestCut, "tile \(run.key) cut a more important event than one it kept")
                }
            }
        }
        // Nesting still holds: the cut at one zoom moves events deeper, never shallower.
        #expect(thinning.minZoom.allSatisfy { $0 <= 6 || $0 == Thinning.never })
    }

    @Test func clustersSummariseTheHiddenEventsOfTheirCell() {
        let (options, points, thinning) = thin { $0.maxZoom = 7 }
        for zoom in 0..<options.maxZoom {
            var total = 0
            for run in TileRun.all(points: points, zoom: zoom) {
                guard let content = TileContent(run: run, points: points, minZoom: thinning.minZoom, options: options) else { continue }
                total += content.events.count
                let hidden = run.range.map { Int(points.order[$0]) }.filter { thinning.minZoom[$0] > zoom }
                var byCell: [[Int]: [Int]] = [:]
                for e in hidden {
                    byCell[[Int(points.worldX[e] >> UInt32(32 - zoom - options.cellBits)), Int(points.worldY[e] >> UInt32(32 - zoom - options.cellBits))], default: []].append(e)
                }
                #expect(content.clusters.count == byCell.count)
                for cluster in content.clusters {
                    let members = byCell[[Int(cluster.cellX), Int(cluster.cellY)]] ?? []
                    total += cluster.count
                    #expect(cluster.count == members.count)
                    #expect(cluster.expandZoom == members.map { thinning.minZoom[$0] }.min())
                    #expect(cluster.firstTime == members.map { Self.events[$0].time! }.min())
                    #expect(cluster.lastTime == members.map { Self.events[$0].time! }.max())
                    let magnitudes = members.compactMap { Self.events[$0].mag }
                    #expect(cluster.maxMagnitude == magnitudes.max() || (magnitudes.isEmpty && cluster.maxMagnitude.isNaN))
                    let meanX = members.reduce(0.0) { $0 + Double(points.worldX[$1]) } / Double(members.count)
                    #expect(abs(Double(cluster.worldX) - meanX) <= 1)
                    #expect(cluster.worldX >> UInt32(32 - zoom - options.cellBits) == cluster.cellX, "the mean lies in its cell")
                }
            }
            #expect(total == Self.events.count, "zoom \(zoom)")
        }
    }

    @Test func thinningIsTheSameWhateverTheInputOrder() {
        let (options, _, thinning) = thin { $0.maxZoom = 8 }
        let reversed = Array(Self.events.reversed())
        let points = PointSet(table: TilesFixture.table(reversed), buildTimeOrder: false)
        let again = Thinning(points: points, options: options)
        #expect(Array(again.minZoom.reversed()) == thinning.minZoom)
    }
}
