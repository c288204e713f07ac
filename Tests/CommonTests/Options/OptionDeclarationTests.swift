import QuakeCommon
import Testing

/// An option declared once (`OptionDeclaration`): read, checked, helped and defaulted from its declaration.
@Suite struct OptionDeclarationTests {
    /// A toy set of options.
    struct Knobs: DeclaredOptions, Equatable {
        var level = 3
        var wait: Double = 600
        var label: String?
    }

    static let level = OptionDeclaration<Knobs>.wholeNumber("level", key: "level", at: \.level, in: 1...9, "How loud (default {default}, at most 9).")
    static let wait = OptionDeclaration<Knobs>.seconds("wait", key: "wait", at: \.wait, in: 0...3_600, "Seconds to wait")
    static let label = OptionDeclaration<Knobs>(flag: "label", key: nil, at: \.label, valueName: "name", summary: "A label.", parse: { $0 }, text: nil)

    /// The help says the default where the summary puts it, else after it; the default is `Knobs()`'s.
    @Test func theHelpSaysTheDefault() {
        #expect(Self.level.help == "How loud (default 3, at most 9).")
        #expect(Self.wait.help == "Seconds to wait (default 600).")
        #expect(Self.label.help == "A label." && Self.label.defaultText == nil && Self.label.isHidden)
    }

    /// A text is read, checked and set; a wrong one is said without the option's name, and
    /// `apply` names the flag.
    @Test func aTextIsReadAndChecked() throws {
        var knobs = Knobs()
        try Self.wait.set("2m", in: &knobs)
        try Self.level.set("7", in: &knobs)
        #expect(knobs == Knobs(level: 7, wait: 120))
        for (option, text, reason) in [(Self.level, "12", "must be 1…9, not 12"), (Self.level, "x", "\"x\" is not a whole number"),
                                       (Self.wait, "2h", "must be 0.0…3600.0 seconds, not 7200.0"),
                                       (Self.wait, "nan", "must be 0.0…3600.0 seconds, not nan"),
                                       (Self.wait, "soon", "\"soon\" is not a duration (90, 90s, 10m, 2h, 1d)")] {
            #expect(throws: OptionProblem.self) { try option.set(text, in: &knobs) }
            do { try option.set(text, in: &knobs) } catch let problem as OptionProblem { #expect(problem.reason == reason) }
        }
        #expect(knobs == Knobs(level: 7, wait: 120), "a wrong text changes nothing")
        do {
            try OptionDeclaration.apply([(Self.level, nil), (Self.wait, "-1")], to: &knobs)
            Issue.record("-1 was taken")
        } catch let error as QuakeBakeError {
            #expect(error.kind == .usage && error.description == "--wait must be 0.0…3600.0 seconds, not -1.0")
        }
        #expect(throws: QuakeBakeError.self) { try OptionDeclaration.check(Knobs(level: 0), against: [Self.level]) }
        try OptionDeclaration.check(Knobs(), against: [Self.level, Self.wait, Self.label])
    }

    /// An option in other words (`worded`) is the same option: only its help differs.
    @Test func anOptionInOtherWordsIsTheSameOption() throws {
        let quiet = Self.level.worded("How quiet (default {default}).")
        #expect(quiet.help == "How quiet (default 3)." && Self.level.help == "How loud (default 3, at most 9).")
        #expect(quiet.flag == Self.level.flag && quiet.key == Self.level.key && quiet.defaultText == Self.level.defaultText)
        var knobs = Knobs()
        try quiet.set("5", in: &knobs)
        #expect(knobs.level == 5)
        #expect(throws: OptionProblem.self) { try quiet.set("12", in: &knobs) }
    }
}
