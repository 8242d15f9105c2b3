/// Reads an XML document into ``XMLElement``s with libxml2's pull parser: no network, no DTD loaded, and a
/// document with a DTD refused before libxml2 sees it (libxml2 expands the internal entities of attribute
/// values whatever its options), so that a document can make skdpack read nothing but itself.
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
        if let line = doctypeLine(bytes) {
            throw Malformed(
                line: line,
                reason: "the document has a DTD (<!DOCTYPE …>), and documents with one are refused: a DTD declares entities, "
                    + "which can expand a few bytes into gigabytes or stand for files and URLs to read; neither CPIX nor skdpack's "
                    + "reports use one, so remove the <!DOCTYPE …> declaration")
        }
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

    /// The line of a `<!DOCTYPE` in the prolog of `bytes` (UTF-8, or UTF-16 by its byte order mark or its
    /// zero bytes), before the root element starts; `nil` when there is none.
    static func doctypeLine(_ bytes: [UInt8]) -> Int? {
        let head = Array(bytes.prefix(1 << 16))
        let text: String
        if head.starts(with: [0xFF, 0xFE]) || (head.count > 1 && head[0] != 0 && head[1] == 0) {
            text = String(
                decoding: stride(from: 0, to: head.count - 1, by: 2).map { UInt16(head[$0]) | UInt16(head[$0 + 1]) << 8 }, as: UTF16.self)
        } else if head.starts(with: [0xFE, 0xFF]) || (head.count > 1 && head[0] == 0) {
            text = String(
                decoding: stride(from: 0, to: head.count - 1, by: 2).map { UInt16(head[$0]) << 8 | UInt16(head[$0 + 1]) }, as: UTF16.self)
        } else {
            text = String(decoding: head, as: UTF8.self)
        }
        let scalars = Array(text.unicodeScalars)
        var line = 1
        var index = 0
        func starts(_ word: String) -> Bool { scalars[index...].starts(with: word.unicodeScalars) }
        while index < scalars.count {
            if scalars[index] == "\n" { line += 1 }
            if starts("<!--") {
                // A comment may say anything: skip to its end.
                while index < scalars.count, !starts("-->") {
                    index += 1
                    if index < scalars.count, scalars[index] == "\n" { line += 1 }
                }
            } else if starts("<!DOCTYPE") {
                return line
            } else if scalars[index] == "<", index + 1 < scalars.count,
                scalars[index + 1].properties.isAlphabetic || scalars[index + 1] == "_" || scalars[index + 1] == ":"
            {
                return nil
            }
            index += 1
        }
        return nil
    }

    private static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    private static func string(_ text: UnsafePointer<UInt8>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }
}
