import Foundation
import QuakeBundles
import QuakeCommon

/// The file a style is read from (`export --style FILE`): one per process, rewritten for every input.
let file: URL = {
    let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
    return directory.appendingPathComponent("quake-bake-fuzz-style-\(getpid()).json")
}()

/// libFuzzer's entry: one input, a style from outside as quake-bake reads it. `StyleValidator`
/// says it is a style or what is wrong with it; a style it passes goes on as `export --style`
/// takes it (`StyleTemplate`: the `quakes` source pointed at the bundle's tiles, written as
/// `style.json`). `serve` reads that `style.json` through the same validator and writes it with
/// the same `JSONSerialization` (`ServeStyle`, not linked here: it would bring SwiftNIO into the
/// fuzz build). Stops the run (a crash libFuzzer saves) at a crash or trap anywhere, and when:
/// - the validator's problem is empty or more than one line;
/// - `export --style` fails otherwise than with a `QuakeBakeError` of exit status 64 naming the
///   file, for a style the validator passed;
/// - what export writes is not a style the validator passes (`serve` would refuse the bundle), or
///   reading it back as a template writes other bytes (a second export must write the same).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStyle(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = Data(UnsafeRawBufferPointer(start: start, count: count))
    defer { try? FileManager.default.removeItem(at: file) }
    do {
        _ = try StyleValidator.validate(bytes)
    } catch {
        if error.description.isEmpty || error.description.contains("\n") { fail("a problem that is not one line: \(error.description.debugDescription)") }
        return 0
    }
    let template: StyleTemplate
    do {
        template = try StyleTemplate(contentsOf: written(bytes))
    } catch let error as QuakeBakeError {
        if error.exitStatus != .usage { fail("export --style: exit status \(error.exitStatus.rawValue), not 64: \(error.description)") }
        if !error.description.contains(file.path) { fail("export --style: the message does not name the file: \(error.description)") }
        return 0
    } catch {
        fail("export --style: not a QuakeBakeError: \(error)")
    }
    let text = Data(template.text.utf8)
    do { _ = try StyleValidator.validate(text) } catch { fail("export wrote a style the validator refuses (\(error.description)): \(template.text.prefix(2000))") }
    do {
        let again = try StyleTemplate(contentsOf: written(text))
        if again.text != template.text { fail("export's style read back as a template writes other bytes:\n\(template.text.prefix(2000))\n---\n\(again.text.prefix(2000))") }
    } catch {
        fail("export's style read back as a template fails: \(error)")
    }
    return 0
}

/// `bytes` written to `file`.
func written(_ bytes: Data) -> URL {
    do { try bytes.write(to: file) } catch { fail("cannot write \(file.path): \(error)") }
    return file
}

/// Stops the run with `message` on standard error: libFuzzer saves the input as a crash.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("quake-bake fuzz: \(message)\n".utf8))
    abort()
}
