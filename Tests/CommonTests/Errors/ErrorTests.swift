import Foundation
import QuakeCommon
import Testing
import TestSupport

/// What an error says: a kind, the exit status the kind stands for, and words a person reads.
@Suite struct ErrorTests {
    @Test func eachKindEndsARunWithItsExitStatus() {
        let statuses = Dictionary(uniqueKeysWithValues: QuakeBakeError.Kind.allCases.map { ($0, QuakeBakeError($0, "x").exitStatus.rawValue) })
        #expect(statuses == [.usage: 64, .badData: 65, .locked: 75, .unavailable: 75, .refused: 1, .overLimit: 1, .failure: 1])
    }

    @Test func anErrorGivenOnlyAStatusHasTheKindItStandsFor() {
        #expect(QuakeBakeError("bad flag", exitStatus: .usage).kind == .usage)
        #expect(QuakeBakeError("damaged", exitStatus: .dataError).kind == .badData)
        #expect(QuakeBakeError("later", exitStatus: .temporaryFailure).kind == .unavailable)
        #expect(QuakeBakeError("no").kind == .failure)
        #expect(QuakeBakeError("no").exitStatus == .failure)
        // Any error that gives a status has a kind, the one its status stands for unless it says otherwise.
        struct Other: ExitStatusProviding { var exitStatus: QuakeCommon.ExitStatus { .usage } }
        #expect(Other().kind == .usage)
    }

    @Test func aFileErrorIsToldAsTheFileAndTheSystemsReason() throws {
        let directory = TemporaryDirectory("error-text")
        let missing = directory.path("nowhere/file.txt")
        do {
            _ = try Data(contentsOf: missing)
            Issue.record("read a missing file")
        } catch {
            #expect(ErrorText.message(error) == "\(missing.path): No such file or directory")
        }
        #expect(ErrorText.message(QuakeBakeError(.locked, "in use")) == "in use")
    }
}
