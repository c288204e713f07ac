@testable import QuakeCommon
import Testing

/// What a run says to people: durations, counts and sizes in words.
@Suite struct RunningTests {
    @Test func durationsAreReadAsPeopleWriteThem() {
        #expect(DurationText.seconds("90") == 90)
        #expect(DurationText.seconds("45s") == 45)
        #expect(DurationText.seconds("10m") == 600)
        #expect(DurationText.seconds(" 6h ") == 21_600)
        #expect(DurationText.seconds("2d") == 172_800)
        for wrong in ["", "-5", "inf", "1e400s", "5w", "m"] { #expect(DurationText.seconds(wrong) == nil, "\(wrong)") }
        #expect(DurationText.describe(45) == "45 s")
        #expect(DurationText.describe(600) == "10 min")
        #expect(DurationText.describe(100_000) == "27.8 h")
    }

    @Test func countsAndSizesAreWrittenForPeople() {
        #expect(Format.count(1_234_567) == "1,234,567")
        #expect(Format.count(1, "event") == "1 event")
        #expect(Format.count(2, "event") == "2 events")
        #expect(Format.bytes(64 << 20) == "64.0 MB")
    }

    @Test func quietRunsReportToASinkThatDrawsNothing() {
        // `--quiet` (and cron, where standard error is no terminal) draws no progress line.
        #expect(Progress.automatic(quiet: true) is SilentProgress)
    }
}
