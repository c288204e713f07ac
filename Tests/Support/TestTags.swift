import Foundation
import Testing

/// The tags of the slow tests, which `Scripts/test --quick` leaves out: everything else is the
/// loop for editing, and `Scripts/test` (CI) runs everything.
extension Tag {
    /// The replay of a month of real catalog history, bake after bake (OperationsTests.ReplayTests).
    @Tag public static var replay: Self
    /// `bake` killed at random moments (OperationsTests.ChaosTests).
    @Tag public static var chaos: Self
    /// Tests that draw a map in MapLibre Native (`mapli`) or headless Chromium and judge its pixels.
    @Tag public static var renderer: Self
}

extension Trait where Self == ConditionTrait {
    /// Runs the test unless `QUAKE_BAKE_SKIP_TAGS` (tag names, comma-separated) names `tag`:
    /// `Scripts/test --quick` sets it to `replay,chaos,renderer`. Beside `.tags(tag)`, because
    /// `swift test` (6.3) filters by test name only, not by tag (`--skip tag:chaos` runs ChaosTests).
    public static func unlessSkipped(_ tag: Tag) -> Self {
        .enabled("left out: QUAKE_BAKE_SKIP_TAGS names \(tag)") { TestLoop.runs(tag) }
    }
}

/// Which tagged tests this run takes.
public enum TestLoop {
    /// The tag names `QUAKE_BAKE_SKIP_TAGS` lists.
    public static let skippedTags: Set<String> = Set(
        (ProcessInfo.processInfo.environment["QUAKE_BAKE_SKIP_TAGS"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })

    /// Whether this run takes the tests tagged `tag` (`Tag.description` is `.name`).
    public static func runs(_ tag: Tag) -> Bool {
        let name = String(describing: tag)
        return !skippedTags.contains(name.hasPrefix(".") ? String(name.dropFirst()) : name)
    }
}
