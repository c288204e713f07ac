import Foundation
import QuakeCommon
import Yams

/// A configuration file's YAML as plain values: mappings as `[String: Any]`, sequences as
/// `[Any]`, scalars as `String`, `Int`, `Double`, `Bool` or `NSNull`, for `ConfigurationFile`.
///
/// Yams composes the nodes (libyaml parses); the values are built here, not by Yams'
/// `Node.any`: its constructor force-unwraps a mapping key as text (a key that is a list,
/// `? [a, b]`, ended the process with SIGILL) and multiplies sexagesimal integers without
/// overflow checks (`1:0:0:0:0:0:0:0:0:0:0:0` trapped). Here a key must be a scalar, a
/// number is read with Swift's own parsers (too large: it stays text, and the key that wanted
/// a number says so), a timestamp stays text for `ISOTime` (as on the command line), and merge
/// keys (`<<: *defaults`) merge. (Yams' parser refuses a key given twice.)
enum ConfigurationYAML {
    /// The most values (scalars, mappings, sequences) a configuration may hold once its YAML
    /// aliases are expanded: a few lines of aliases can stand for billions ("billion laughs").
    static let maximumValues = 10_000

    /// The values of `text` (`nil` for an empty document); `source` names it in messages.
    static func values(of text: String, source: String) throws -> Any? {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            // libyaml quotes the offending line, which may be a whole file long.
            let words = "\(error)"
            throw QuakeBakeError("\(source) is not valid YAML: \(words.count > 400 ? words.prefix(400) + "…" : words[...])", exitStatus: .usage)
        }
        guard let root else { return nil }
        // Composing keeps an alias as one shared node; building the values expands it: counted first.
        var budget = maximumValues
        guard fits(root, within: &budget) else {
            throw QuakeBakeError("\(source) holds more than \(Format.count(maximumValues)) values once its YAML aliases are expanded; "
                                 + "a configuration needs a few dozen", exitStatus: .usage)
        }
        return try value(of: root, source: source)
    }

    /// Whether `node` holds at most `budget` values, aliases expanded (the walk stops once over).
    private static func fits(_ node: Node, within budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch node {
        case .scalar, .alias: return true
        case .mapping(let mapping): return mapping.allSatisfy { fits($0.key, within: &budget) && fits($0.value, within: &budget) }
        case .sequence(let sequence): return sequence.allSatisfy { fits($0, within: &budget) }
        }
    }

    private static func value(of node: Node, source: String) throws -> Any {
        switch node {
        case .scalar(let scalar): return value(of: scalar, tag: node.tag)
        case .sequence(let sequence): return try sequence.map { try value(of: $0, source: source) }
        case .mapping(let mapping): return try values(of: mapping, source: source)
        case .alias: throw problem(node, source: source, "an alias that names nothing")
        }
    }

    /// A scalar by its resolved tag (`Node.tag`: YAML 1.1 core schema, as Yams resolves it).
    private static func value(of scalar: Node.Scalar, tag: Tag) -> Any {
        let text = scalar.string
        switch tag.rawValue {
        case Tag.Name.null.rawValue: return NSNull()
        case Tag.Name.bool.rawValue:
            if let flag = Bool.construct(from: scalar) { return flag }
            return text
        case Tag.Name.int.rawValue: return Int(text.replacingOccurrences(of: "_", with: "")) ?? text
        case Tag.Name.float.rawValue: return Double(text.replacingOccurrences(of: "_", with: "")) ?? text
        default: return text  // strings, timestamps (read by ISOTime), and any other tag
        }
    }

    /// A mapping whose keys are scalars; `<<` merges mappings under the keys given here.
    private static func values(of mapping: Node.Mapping, source: String) throws -> [String: Any] {
        var result: [String: Any] = [:]
        var merged: [String: Any] = [:]
        for (key, value) in mapping {
            guard let scalar = key.scalar else {
                throw problem(key, source: source, "a key is a \(key.mapping != nil ? "mapping" : "list"), not a name")
            }
            if key.tag.rawValue == Tag.Name.merge.rawValue {
                let sources = value.sequence.map(Array.init) ?? [value]
                for part in sources.reversed() {
                    guard let partMapping = part.mapping else { throw problem(part, source: source, "<< merges mappings only") }
                    merged.merge(try values(of: partMapping, source: source)) { _, later in later }
                }
                continue
            }
            result[scalar.string] = try self.value(of: value, source: source)
        }
        return merged.merging(result) { _, own in own }
    }

    private static func problem(_ node: Node, source: String, _ what: String) -> QuakeBakeError {
        let line = node.mark.map { " line \($0.line)" } ?? ""
        return QuakeBakeError("configuration \(source)\(line): \(what)", exitStatus: .usage)
    }
}
