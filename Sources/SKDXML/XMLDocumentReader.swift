/// Reads an XML document into ``XMLElement``s with libxml2's pull parser: no network, no DTD loaded, no
/// entity substituted, so that a document can make skdpack read nothing but itself.
package enum XMLDocumentReader {
    /// The document is not well-formed XML (or has no element), with the line libxml2 stopped at.
    package struct Malformed: Error, CustomStringConvertible {
        package var line: Int
        package var reason: String
        package var description: String { "line \(line): \(reason)" }
    }

    /// The root element of `bytes`. `encoding` forces one (`"UTF-8"`); `nil` lets libxml2 tell from the
    /// byte order mark and the XML declaration, as a document from elsewhere (UTF-16) needs.
    package static func read(_ bytes: [UInt8], encoding: String?) throws -> XMLElement {
        let xml = try LibXML2Reader.load()
        guard let document = XMLTextReader(bytes, encoding: encoding, functions: xml) else {
            throw Malformed(line: 1, reason: "the document could not be opened (too large, or out of memory)")
        }
        let reader = document.reader
        var root: XMLElement?
        var open: [XMLElement] = []
        while true {
            let status = xml.read(reader)
            if status == 0 { break }
            guard status > 0 else {
                throw Malformed(line: Int(xml.lineNumber(reader)), reason: "not well-formed XML")
            }
            switch LibXML2Reader.NodeType(rawValue: xml.nodeType(reader)) {
            case .element:
                let element = XMLElement(
                    name: string(xml.localName(reader)), namespace: string(xml.namespaceURI(reader)),
                    line: xml.nodeLine(xml.currentNode(reader)))
                let isEmpty = xml.isEmptyElement(reader) == 1
                while xml.moveToNextAttribute(reader) == 1 {
                    // Namespace declarations are attributes to the reader; they say nothing of the element.
                    let namespace = string(xml.namespaceURI(reader))
                    guard namespace != xmlnsNamespace else { continue }
                    element.attributes[string(xml.localName(reader))] = string(xml.value(reader))
                }
                _ = xml.moveToElement(reader)
                if let parent = open.last {
                    parent.elements.append(element)
                } else if root == nil {
                    root = element
                }
                if !isEmpty { open.append(element) }
            case .text, .cdata, .significantWhitespace:
                open.last?.text += string(xml.value(reader))
            case .endElement:
                _ = open.popLast()
            case nil:
                continue
            }
        }
        guard let root else { throw Malformed(line: 1, reason: "the document has no element") }
        return root
    }

    private static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    private static func string(_ text: UnsafePointer<UInt8>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }
}
