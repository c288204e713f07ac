import Foundation
import QuakeCommon
import QuakeOperations

/// The file name inputs go by: in a directory of its own, so that a relative `style:` path
/// names a file that is not there (an absolute one is read, within the style's limits).
let source = FileManager.default.temporaryDirectory
    .appendingPathComponent("quake-bake-fuzz-configuration-\(getpid())").appendingPathComponent("bake.yaml").path

/// libFuzzer's entry: one input, read as `bake --config` reads a configuration file. Anything
/// but a configuration or a `QuakeBakeError` with exit status 64 (a crash, a trap, another
/// error, another status, a message that does not name the file) stops the run as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    do {
        _ = try ConfigurationFile.parse(text, source: source)
    } catch let error as QuakeBakeError {
        if error.exitStatus != .usage { fail("exit status \(error.exitStatus.rawValue), not 64: \(error.description)") }
        if !error.description.contains(source) { fail("the message does not name the file: \(error.description)") }
    } catch {
        fail("not a QuakeBakeError: \(error)")
    }
    return 0
}

/// Stops the run with `message` on standard error: libFuzzer saves the input as a crash.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("quake-bake fuzz: \(message)\n".utf8))
    abort()
}
