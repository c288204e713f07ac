import Foundation
import QuakeCommon

/// One option of a run (`--max-rejects`; `max_rejects:`), declared once: the commands' flags and
/// the configuration's keys (`workspace` and `max_rejects` at the top, `out` in `export:`) are
/// made from the declarations, the defaults are `RunOptions()`'s.
public typealias RunOption = OptionDeclaration<RunOptions>

extension OptionDeclaration where Options == RunOptions {
    /// Every option of a run.
    public static let all: [RunOption] = topLevel + exportSection

    /// The options a configuration gives at its top level, beside its sections.
    public static let topLevel: [RunOption] = [workspace, maxRejects]

    /// The options a configuration gives in its `export:` section: where the bundle versions go
    /// belongs with how they are made, though `publish` and `status` read it too.
    public static let exportSection: [RunOption] = [out]

    public static let workspace = RunOption(
        flag: "workspace", key: "workspace", at: \.workspace, form: .directory, valueName: "dir",
        summary: "Workspace directory: raw pages, the store and bundles live here (default $\(Workspace.environmentVariable), "
            + "else $XDG_DATA_HOME/quake-bake, else ~/.local/share/quake-bake).",
        parse: OptionText.path, text: nil)

    /// `--out` as `export` and `bake` take it: where they write the bundle versions.
    public static let out = RunOption(
        flag: "out", key: "out", at: \.out, form: .directory, valueName: "dir",
        summary: "Output directory for bundle versions (default <workspace>/bundles).",
        parse: { URL(fileURLWithPath: try OptionText.path($0)) }, text: nil)

    /// `--out` as `publish` and `status` take it: the same directory and key, where they find the
    /// bundle versions `export` wrote. One option in the words of a command that reads it, not a second option.
    public static let outRead = out.worded("Where export writes the bundle versions, if not <workspace>/bundles.")

    public static let maxRejects = RunOption(
        flag: "max-rejects", key: "max_rejects", at: \.maxRejects, valueName: "n",
        summary: "End with status 65 when a run refuses more items than this; the good ones are stored all the same (default {default}).",
        parse: OptionText.wholeNumber, check: { OptionText.atLeast(0, $0) }, text: String.init)
}
