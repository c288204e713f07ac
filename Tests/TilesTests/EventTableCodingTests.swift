import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeTiles
import TestSupport
import Testing

/// The event table's binary form (the export's event cache), its in-place removal of events and its reordering.
@Suite struct EventTableCodingTests {
    static let attributes: [EventAttribute] = [.id, .mag, .time, .depthKm, .place, .eventType, .status, .alert, .tsunami, .sig, .updated, .minzoom]

    /// Every value of every attribute of every event, as text, for comparing tables.
    static func contents(_ table: EventTable) -> [String] {
        (0..<table.count).map { e in
            "\(table.id(e)) \(table.longitude[e]) \(table.latitude[e]) \(table.fingerprint[e]) "
                + table.attributes.indices.map { "\(String(describing: table.value($0, e)))" }.joined(separator: "|")
        }
    }

    static func events() -> [QuakeEvent] {
        // `updated` (ms since 1970) needs 64 bits, `sig` 32; one event has no magnitude, another odd text.
        var events = TilesFixture.events(["feed-all_week-2018-06.geojson.gz"])
        events[5].mag = nil
        events[8].place = "Ōkoku \"quoted\" \\ <tag>"
        return events
    }

    @Test func aTableReadsBackAsItWasWritten() throws {
        let table = TilesFixture.table(Self.events(), attributes: Self.attributes)
        let dir = TemporaryDirectory("table-coding")
        var out = try BinaryWriter(url: dir.path("table.bin"))
        try table.write(to: &out)
        try out.put(UInt64(42))
        try out.finish()
        let input = try #require(BinaryReader(url: dir.path("table.bin")))
        let read = try EventTable(reading: input, attributes: Self.attributes)
        #expect(try input.get(UInt64.self) == 42)
        try input.finish()
        #expect(read.count == table.count && read.count > 1_000)
        #expect(Self.contents(read) == Self.contents(table))
    }

    @Test func aDamagedOrShortFileIsRefused() throws {
        let table = TilesFixture.table(Self.events(), attributes: Self.attributes)
        let dir = TemporaryDirectory("table-coding")
        var out = try BinaryWriter(url: dir.path("table.bin"))
        try table.write(to: &out)
        try out.finish()
        var bytes = try Data(contentsOf: dir.path("table.bin"))
        bytes[bytes.count / 3] ^= 0x01
        try bytes.write(to: dir.path("flipped.bin"))
        try bytes.prefix(bytes.count - 100).write(to: dir.path("short.bin"))
        for name in ["flipped.bin", "short.bin"] {
            let input = try #require(BinaryReader(url: dir.path(name)))
            #expect(throws: BinaryFileError.self, "\(name)") {
                _ = try EventTable(reading: input, attributes: Self.attributes)
                try input.finish()
            }
        }
    }

    /// A spillable array of several megabytes (written a megabyte at a time, read in one run)
    /// reads back with its checksum: at 440,000 events every column of the export's event
    /// cache is that big, and a checksum of runs made the cache unreadable after every export.
    @Test func anArrayWrittenInPiecesReadsBackWhole() throws {
        let dir = TemporaryDirectory("table-coding")
        var values = SpillableArray<UInt64>(spill: nil)
        for i in 0..<300_003 { values.append(UInt64(i) &* 0x9E37_79B9_7F4A_7C15) }
        var out = try BinaryWriter(url: dir.path("big.bin"))
        try out.put(UInt8(7))  // an odd start: the pieces then end between words
        try out.put(values)
        try out.put([UInt8](repeating: 3, count: 5))
        try out.finish()
        let input = try #require(BinaryReader(url: dir.path("big.bin")))
        #expect(try input.get(UInt8.self) == 7)
        let read = try input.get([UInt64].self)
        #expect(try input.get([UInt8].self) == [3, 3, 3, 3, 3])
        try input.finish()
        #expect(read.count == 300_003 && (0..<read.count).allSatisfy { read[$0] == values[$0] })
    }

    /// An array's count is checked against the bytes left (those buffered and those not read
    /// yet) before room is made for it: a damaged count never reserves gigabytes.
    @Test func anArrayLongerThanTheRestOfTheFileIsRefused() throws {
        let dir = TemporaryDirectory("table-coding")
        var out = try BinaryWriter(url: dir.path("arrays.bin"))
        try out.put([UInt64](repeating: 7, count: 100_000))  // past the reader's 64 KB buffer
        try out.put([UInt32](1...10))
        try out.finish()
        let input = try #require(BinaryReader(url: dir.path("arrays.bin")))
        #expect(try input.get([UInt64].self).count == 100_000)
        #expect(try input.get([UInt32].self) == Array(1...10))
        try input.finish()
        // The second array's count (10) made 2^24 + 10, within the limit for one array but not
        // within the 40 bytes left: refused before any room is made for it.
        var bytes = try Data(contentsOf: dir.path("arrays.bin"))
        let countAt = 8 + 100_000 * 8
        bytes[countAt + 3] = 0x01
        try bytes.write(to: dir.path("long.bin"))
        let damaged = try #require(BinaryReader(url: dir.path("long.bin")))
        #expect(try damaged.get([UInt64].self).count == 100_000)
        let error = #expect(throws: BinaryFileError.self) { _ = try damaged.get([UInt32].self) }
        #expect(error?.description == "an array is longer than the rest of the file")
    }

    @Test(arguments: [[0], [1, 2, 3], [7, 100, 101, 1_000], Array(stride(from: 0, to: 4_000, by: 3))])
    func removingEventsKeepsTheOthersInOrder(_ removed: [Int]) {
        let events = Self.events()
        var table = TilesFixture.table(events, attributes: Self.attributes)
        let removedSet = Set(removed.filter { $0 < events.count })
        table.removeEvents(removed.filter { $0 < events.count })
        let expected = TilesFixture.table(events.enumerated().filter { !removedSet.contains($0.offset) }.map(\.element), attributes: Self.attributes)
        #expect(table.count == events.count - removedSet.count)
        #expect(Self.contents(table) == Self.contents(expected))
        // Appending after a removal continues every column.
        TilesFixture.append(events[0], to: &table)
        #expect(Self.contents(table) == Self.contents(expected) + Self.contents(TilesFixture.table([events[0]], attributes: Self.attributes)))
    }

    @Test func reorderingPutsEveryColumnInTheNewOrder() {
        let events = Self.events()
        var table = TilesFixture.table(events, attributes: Self.attributes)
        // A fixed shuffle: every 7th position of a cycle (7 and the count share no factor).
        let count = events.count - (events.count % 7 == 0 ? 1 : 0)
        let order = (0..<count).map { UInt32($0 * 7 % count) }
        var trimmed = TilesFixture.table(Array(events.prefix(count)), attributes: Self.attributes)
        trimmed.reorder(order)
        let expected = TilesFixture.table(order.map { events[Int($0)] }, attributes: Self.attributes)
        #expect(trimmed.count == count && count > 1_000)
        #expect(Self.contents(trimmed) == Self.contents(expected))
        // The identity leaves the table as it was.
        let before = Self.contents(table)
        table.reorder(Array(0..<UInt32(table.count)))
        #expect(Self.contents(table) == before)
    }

    /// Place names repeat and are kept as codes; past 65,535 distinct values the codes widen to
    /// 32 bits, and every value still reads back, writes and reads back, survives removal and
    /// reordering, and equal codes stay equal text.
    @Test func aCategoryColumnPastSixteenBitsOfDistinctValues() throws {
        let base = Self.events()[0]
        let places: [String?] = (0..<80_000).map { $0 % 10 == 9 ? nil : "place \($0 % 79_000)" }
        var table = EventTable(attributes: [.id, .place])
        for (i, place) in places.enumerated() {
            Array("qb\(i)".utf8).withUnsafeBytes { id in
                table.appendEvent(id: id, longitude: base.longitude!, latitude: base.latitude!, magnitude: base.mag, time: base.time!, fingerprint: 0)
            }
            if let place { Array(place.utf8).withUnsafeBytes { table.appendText(0, $0) } } else { table.appendText(0, nil) }
        }
        func column(_ table: EventTable) -> [String?] {
            (0..<table.count).map { e in table.value(1, e).map { value in
                guard case .text(let bytes) = value else { return "?" }
                return String(decoding: bytes, as: UTF8.self)
            } }
        }
        #expect(table.isCategory(1) && column(table) == places)
        #expect(table.distinctTextCount(1) { _ in true } == 71_100)
        #expect(table.firstDistinctTexts(1, in: [3, 79_003, 5, 3], of: { _ in true }, limit: 10) == ["place 3", "place 5"])
        #expect(table.categoryCode(1, 3) == table.categoryCode(1, 79_003) && table.categoryCode(1, 3) != table.categoryCode(1, 4))
        #expect(table.categoryCode(1, 9) == 0 && table.categoryCode(1, 78_998) > UInt32(UInt16.max))

        let dir = TemporaryDirectory("table-coding-wide")
        var out = try BinaryWriter(url: dir.path("table.bin"))
        try table.write(to: &out)
        try out.finish()
        let read = try EventTable(reading: try #require(BinaryReader(url: dir.path("table.bin"))), attributes: [.id, .place])
        #expect(column(read) == places)

        table.removeEvents(Array(stride(from: 0, to: 80_000, by: 5)))
        let kept = places.enumerated().filter { $0.offset % 5 != 0 }.map(\.element)
        #expect(column(table) == kept)
        table.reorder((0..<UInt32(table.count)).reversed())
        #expect(column(table) == kept.reversed())
    }

    /// A whole catalog's place names are distinct by the hundred thousand ("37 km SSW of
    /// Ridgecrest, CA"): their text is kept in the table's spill file with the codes, not an
    /// array per value on the heap; once the table is read, appending still finds the codes.
    @Test func distinctPlaceNamesAreKeptInTheSpillFile() throws {
        let dir = TemporaryDirectory("category-spill")
        let places = (0..<200_000).map { "\($0 % 150 + 1) km NNE of Town-\($0 / 150), Somewhere" }
        func table(_ places: [String?], spill: SpillFile) -> EventTable {
            var table = EventTable(attributes: [.id, .place], spill: spill)
            for (i, place) in places.enumerated() {
                Array("qb\(i)".utf8).withUnsafeBytes { table.appendEvent(id: $0, longitude: 0, latitude: 0, magnitude: nil, time: 0, fingerprint: 0) }
                if let place { Array(place.utf8).withUnsafeBytes { table.appendText(0, $0) } } else { table.appendText(0, nil) }
            }
            table.shrinkToFit()
            return table
        }
        let named = try #require(SpillFile(directory: dir.url)), unnamed = try #require(SpillFile(directory: dir.url))
        var withPlaces = table(places, spill: named)
        let withoutPlaces = table(places.map { _ in nil }, spill: unnamed)
        let text = places.reduce(0) { $0 + $1.utf8.count }
        #expect(named.liveBytes - unnamed.liveBytes >= text, "the place names take \(text) bytes; the file holds \(named.liveBytes - unnamed.liveBytes) more with them")
        #expect(withoutPlaces.count == places.count && withoutPlaces.categoryCode(1, 7) == 0)
        #expect(withPlaces.distinctTextCount(1) { _ in true } == places.count)
        Array("qb-more".utf8).withUnsafeBytes { withPlaces.appendEvent(id: $0, longitude: 0, latitude: 0, magnitude: nil, time: 0, fingerprint: 0) }
        Array(places[123_456].utf8).withUnsafeBytes { withPlaces.appendText(0, $0) }
        #expect(withPlaces.categoryCode(1, places.count) == withPlaces.categoryCode(1, 123_456))
        #expect(withPlaces.value(1, places.count) == withPlaces.value(1, 123_456) && withPlaces.distinctTextCount(1) { _ in true } == places.count)
    }

    /// A table whose columns are in a spill file holds what one on the heap holds, through
    /// removal, appending, reordering, its binary form, and its pages let go of in between.
    @Test func aTableInASpillFileHoldsWhatOneOnTheHeapHolds() throws {
        let events = Self.events()
        let dir = TemporaryDirectory("table-spill")
        let spill = try #require(SpillFile(directory: dir.url, residentAllowance: 0))
        var table = TilesFixture.table(events, attributes: Self.attributes, spill: spill)
        var heap = TilesFixture.table(events, attributes: Self.attributes)
        #expect(table.spill === spill && table.count > 1_000)
        spill.releaseResident()
        #expect(Self.contents(table) == Self.contents(heap))
        let copy = table
        for t in [0, 1] {
            var changed = t == 0 ? table : heap
            changed.removeEvents(Array(stride(from: 1, to: events.count, by: 4)))
            TilesFixture.append(events[3], to: &changed)
            changed.reorder((0..<UInt32(changed.count)).reversed())
            if t == 0 { table = changed } else { heap = changed }
        }
        spill.releaseResident()
        #expect(Self.contents(table) == Self.contents(heap))
        // The copy taken before kept its values (copy on write, in the file too).
        #expect(Self.contents(copy) == Self.contents(TilesFixture.table(events, attributes: Self.attributes)))
        var out = try BinaryWriter(url: dir.path("table.bin"))
        try table.write(to: &out)
        try out.finish()
        let input = try #require(BinaryReader(url: dir.path("table.bin")))
        let read = try EventTable(reading: input, attributes: Self.attributes, spill: spill)
        try input.finish()
        spill.releaseResident()
        #expect(Self.contents(read) == Self.contents(heap))
        // Nothing of the file is left in the directory: it has no name.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".spill") }.isEmpty)
    }

    /// What a spill file holds stops counting against the process once let go of, and comes
    /// back unchanged when read.
    @Test func aSpillFileLetsGoOfWhatWasTouched() throws {
        let dir = TemporaryDirectory("spill-resident")
        let spill = try #require(SpillFile(directory: dir.url))
        func residentBytes() throws -> Int {
            let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
            return Int(fields[1])! * Int(sysconf(Int32(_SC_PAGESIZE)))
        }
        // 96 MB, past what may stay whole; written and summed through the buffer in plain loops (the
        // tests are not optimised: the generic initialiser and `reduce` over 12 million values took 8 s).
        let values = SpillableArray<UInt64>(count: 12_000_000, spill: spill) { buffer in
            for i in buffer.indices { buffer[i] = UInt64(i) }
        }
        let touched = try residentBytes()
        spill.releaseResident()
        let released = try residentBytes()
        #expect(touched - released > 80_000_000, "resident \(touched) bytes before the release, \(released) after")
        let sum: UInt64 = 12_000_000 * 11_999_999 / 2
        let read = values.withUnsafeBufferPointer { buffer in
            var total: UInt64 = 0
            for value in buffer { total &+= value }
            return total
        }
        #expect(read == sum)
        var copy = values
        copy[0] = 42
        #expect(values[0] == 0 && copy[0] == 42 && copy.count == values.count)
    }

    /// The tile of zoom 0 holds every event: making its content (clusters, heat cells) reads the
    /// codes, positions, magnitudes and times of all of them, and lets go of what it has read as
    /// it goes instead of holding every column at once.
    @Test func aWholeWorldTileLetsGoOfTheColumnsItReads() throws {
        let dir = TemporaryDirectory("tile-content-spill")
        let spill = try #require(SpillFile(directory: dir.url, residentAllowance: 0))
        let events = (0..<300_000).map { i -> QuakeEvent in
            var event = QuakeEvent(id: "qb\(i)", updated: 1, time: Int64(i) * 1_000, longitude: Double(i % 3_600) / 10 - 180,
                                   latitude: Double(i / 3_600) - 60)
            event.mag = Double(i % 70) / 10
            return event
        }
        let table = TilesFixture.table(events, attributes: [.id, .mag, .time], spill: spill)
        let points = PointSet(table: table, buildTimeOrder: false)
        let run = try #require(TileRun.all(points: points, zoom: 0).first)
        #expect(run.range.count == events.count)
        spill.releaseResident()
        let content = try #require(TileContent(run: run, points: points, minZoom: [UInt8](repeating: 10, count: events.count), options: ThinningOptions()))
        #expect(content.clusters.reduce(0) { $0 + $1.count } == events.count && content.heat.reduce(0) { $0 + Int($1.count) } == events.count)
        let read = events.count * 32  // Morton codes, positions, magnitudes, times
        let resident = try #require(spill.residentBytes)
        #expect(resident < read / 2, "\(resident) bytes of the spill file resident after reading \(read)")
    }

    @Test func arraysLoseTheElementsAtAscendingPositions() {
        var numbers = Array(0..<20)
        numbers.remove(atAscending: [0, 3, 4, 19])
        #expect(numbers == [1, 2] + Array(5..<19))
        var untouched = [1, 2, 3]
        untouched.remove(atAscending: [])
        #expect(untouched == [1, 2, 3])
    }
}
