import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An S3 answer's XML as a tree of elements (the answers are small: a page of a listing,
/// an error, the result of a multipart step; their size is bounded by the body limit).
struct S3XML {
    var name: String
    var text = ""
    var children: [S3XML] = []

    /// The first child called `name`.
    func child(_ name: String) -> S3XML? { children.first { $0.name == name } }
    /// Every child called `name`, in order.
    func all(_ name: String) -> [S3XML] { children.filter { $0.name == name } }
    /// The text of the first child called `name`.
    func text(_ name: String) -> String? { child(name)?.text }

    /// The root element of `data`, or `nil` when it is not XML.
    static func parse(_ data: Data) -> S3XML? {
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        guard parser.parse(), let root = builder.root else { return nil }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [S3XML] = []
        var root: S3XML?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            stack.append(S3XML(name: elementName))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !stack.isEmpty { stack[stack.count - 1].text += string }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }
    }
}
