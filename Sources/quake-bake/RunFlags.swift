import ArgumentParser
import QuakeOperations

extension RunOptions {
    /// `base` (a configuration's, or the defaults) with what each of `flags` gives over it: a
    /// command's workspace (`CommonOptions`), `--out` and `--max-rejects`, as it takes them.
    init(_ flags: any DeclaredFlags<RunOptions>..., over base: RunOptions = RunOptions()) throws {
        self = base
        for group in flags { try group.apply(to: &self) }
    }
}

/// `--out` as `export` and `bake` take it: where they write the bundle versions (`RunOption.out`).
struct OutFlag: DeclaredFlags {
    @Option(RunOption.out) var out: String?

    func apply(to run: inout RunOptions) throws { try RunOption.apply([(.out, out)], to: &run) }
}

/// `--out` as `publish` and `status` take it: where they find the bundle versions (`RunOption.outRead`).
struct ReadOutFlag: DeclaredFlags {
    @Option(RunOption.outRead) var out: String?

    func apply(to run: inout RunOptions) throws { try RunOption.apply([(.outRead, out)], to: &run) }
}

/// `--max-rejects`, as `index` and `bake` take it (`RunOption.maxRejects`).
struct MaxRejectsFlag: DeclaredFlags {
    @Option(RunOption.maxRejects) var maxRejects: String?

    func apply(to run: inout RunOptions) throws { try RunOption.apply([(.maxRejects, maxRejects)], to: &run) }
}
