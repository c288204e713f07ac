import Foundation
import QuakeCommon
import Testing
import TestSupport

/// Files written whole or not at all, read within limits, copied byte for byte, and the binary
/// cache format read back as written.
@Suite struct FileTests {
    @Test func anAtomicWriteReplacesTheFileAndLeavesNoScratch() throws {
        let directory = TemporaryDirectory("atomic-file")
        let file = directory.path("manifest.json")
        try AtomicFile.write(Data("old".utf8), to: file)
        try AtomicFile.write(Data("new".utf8), to: file)
        #expect(try Data(contentsOf: file) == Data("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["manifest.json"])
        // What a killed writer leaves (its scratch file) is swept; nothing else is.
        try Data("half".utf8).write(to: AtomicFile.temporary(file))
        #expect(AtomicFile.removeDebris(under: directory.url) == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["manifest.json"])
    }

    @Test func anInputFileIsReadWithinItsLimitAndRefusedInWordsOtherwise() throws {
        let directory = TemporaryDirectory("input-file")
        let file = directory.path("events.csv")
        try Data(count: 1_000).write(to: file)
        #expect(try InputFile.bytes(of: file, maxBytes: 1_000).count == 1_000)
        for (url, words) in [(file, "over"), (directory.url, "directory"), (directory.path("missing.csv"), "No such file")] {
            do {
                _ = try InputFile.bytes(of: url, maxBytes: 999)
                Issue.record("\(url.path) was read")
            } catch {
                #expect(error.description.contains(url.path) && error.description.contains(words), "\(error)")
            }
        }
    }

    @Test func aCopyHasTheSameBytes() throws {
        let directory = TemporaryDirectory("file-copy")
        var random = SeededGenerator(seed: 3)
        let bytes = Data((0..<(3 << 20) + 17).map { _ in UInt8.random(in: 0...255, using: &random) })
        let source = directory.path("source.bin"), copy = directory.path("copy.bin")
        try bytes.write(to: source)
        try FileCopy.copy(source, to: copy)
        #expect(try Data(contentsOf: copy) == bytes)
        #expect(throws: QuakeBakeError.self) { try FileCopy.copy(directory.path("missing"), to: copy) }
    }

    @Test func aBinaryFileIsReadBackAsWritten() throws {
        let directory = TemporaryDirectory("binary-file")
        let file = directory.path("cache.bin")
        var writer = try BinaryWriter(url: file)
        try writer.put(UInt32(7))
        try writer.put(-1.5)
        try writer.put([Int64.min, 0, Int64.max])
        try writer.put(SpillableArray<UInt16>([1, 2, 3]))
        try writer.finish()
        let reader = try #require(BinaryReader(url: file))
        #expect(try reader.get(UInt32.self) == 7)
        #expect(try reader.get(Double.self) == -1.5)
        #expect(try reader.get([Int64].self) == [Int64.min, 0, Int64.max])
        #expect(Array(try reader.get(SpillableArray<UInt16>.self, spill: nil)) == [1, 2, 3])
        try reader.finish()
        // One byte changed: the checksum says so.
        var damaged = try Data(contentsOf: file)
        damaged[5] ^= 0xFF
        try damaged.write(to: file)
        let again = try #require(BinaryReader(url: file))
        _ = try again.get(UInt32.self)
        _ = try again.get(Double.self)
        _ = try again.get([Int64].self)
        _ = try again.get(SpillableArray<UInt16>.self, spill: nil)
        #expect(throws: BinaryFileError.self) { try again.finish() }
    }
}
