/// The common kinds of option, so that a declaration says only what is its own.
extension OptionDeclaration {
    /// A whole number within `range` (`--concurrency 2`); the help says the default.
    public static func wholeNumber(_ flag: String, key: String, at path: WritableKeyPath<Options, Int> & Sendable, valueName: String = "n",
                                   in range: ClosedRange<Int>, _ summary: String) -> Self {
        Self(flag: flag, key: key, at: path, valueName: valueName, summary: summary,
             parse: OptionText.wholeNumber, check: { OptionText.within(range, $0) }, text: String.init)
    }

    /// Seconds within `range`, given as a number (`90`) or a duration (`2m`); the help says the default.
    public static func seconds(_ flag: String, key: String, at path: WritableKeyPath<Options, Double> & Sendable, in range: ClosedRange<Double>,
                               _ summary: String) -> Self {
        Self(flag: flag, key: key, at: path, valueName: "s", summary: summary,
             parse: OptionText.seconds, check: { OptionText.within(range, $0, unit: "seconds") }, text: Format.number)
    }

    /// Any text, or none (`--region eu-west-1`); the summary says what not giving it means.
    public static func text(_ flag: String, key: String, at path: WritableKeyPath<Options, String?> & Sendable, valueName: String,
                            _ summary: String) -> Self {
        Self(flag: flag, key: key, at: path, valueName: valueName, summary: summary, parse: { $0 }, text: nil)
    }
}
