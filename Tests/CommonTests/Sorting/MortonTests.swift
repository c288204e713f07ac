import QuakeCommon
import Testing

/// Morton codes interleave x and y, so that a code's top bits name its tile at every zoom.
@Suite struct MortonTests {
    @Test func bitsInterleaveXFirst() {
        #expect(Morton.code(x: 0, y: 0) == 0)
        #expect(Morton.code(x: 1, y: 0) == 0b01)
        #expect(Morton.code(x: 0, y: 1) == 0b10)
        #expect(Morton.code(x: 0b11, y: 0b01) == 0b0111)
        #expect(Morton.code(x: .max, y: .max) == .max)
    }

    @Test func thePrefixOfACodeIsItsCellAtThatLevel() {
        // The top bit of x and of y: the quarter of the world (level 1); the top two: the sixteenth.
        let code = Morton.code(x: 0b11 << 30, y: 0b01 << 30)
        #expect(Morton.prefix(code, level: 0) == 0)
        #expect(Morton.prefix(code, level: 1) == 0b01)
        #expect(Morton.prefix(code, level: 2) == 0b0111)
        // Codes sorted put every cell in one run.
        let codes = [(5, 9), (1, 1), (4_000_000_000, 3), (7, 7)].map { Morton.code(x: UInt32($0.0), y: UInt32($0.1)) }.sorted()
        #expect(codes.map { Morton.prefix($0, level: 1) } == codes.map { Morton.prefix($0, level: 1) }.sorted())
    }
}
