import Foundation
import QuakeCommon
import Testing

/// Work on other threads, with its results (and failures) gathered where they are asked for.
@Suite struct ConcurrencyTests {
    @Test func parallelWorkComesBackInOrder() {
        let squares: [Int] = Parallel.map(1_000) { $0 * $0 }
        let expected: [Int] = (0..<1_000).map { $0 * $0 }
        #expect(squares == expected)
        #expect(Parallel.map(0) { $0 }.isEmpty)
    }

    @Test func backgroundWorkGivesItsResultOrItsErrorOnce() throws {
        let sum = BackgroundWork("sum") { (1...100).reduce(0, +) }
        #expect(try sum.wait() == 5_050)
        let failing = BackgroundWork<Int>("failing") { throw QuakeBakeError(.overLimit, "too many") }
        #expect(throws: QuakeBakeError.self) { try failing.wait() }
        let taken = BackgroundWork("taken") { [1, 2, 3] }
        #expect(try taken.take() == [1, 2, 3])
        do {
            _ = try taken.take()
            Issue.record("a result taken twice")
        } catch let error as QuakeBakeError {
            #expect(error.description.contains("already taken"))
        }
    }
}
