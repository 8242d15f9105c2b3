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
    /// zero bytes), before the root element starts; `nil` when there is none. Only the prolog is looked at,
    /// in place for UTF-8 (a CPIX document is read at every `apply --cpix`).
    static func doctypeLine(_ bytes: [UInt8]) -> Int? {
        let head = bytes.prefix(1 << 16)
        let littleEndian = head.starts(with: [0xFF, 0xFE]) || (head.count > 1 && head[0] != 0 && head[1] == 0)
        let bigEndian = head.starts(with: [0xFE, 0xFF]) || (head.count > 1 && head[0] == 0)
        guard littleEndian || bigEndian else { return doctypeLine(inUTF8: head) }
        let units = stride(from: 0, to: head.count - 1, by: 2).map { index in
            littleEndian ? UInt16(head[index]) | UInt16(head[index + 1]) << 8 : UInt16(head[index]) << 8 | UInt16(head[index + 1])
        }
        return doctypeLine(inUTF8: Array(String(decoding: units, as: UTF16.self).utf8)[...])
    }

    private static func doctypeLine(inUTF8 text: ArraySlice<UInt8>) -> Int? {
        var line = 1
        var index = text.startIndex
        func starts(_ word: StaticString) -> Bool {
            word.withUTF8Buffer { text[index...].starts(with: $0) }
        }
        while index < text.endIndex {
            if text[index] == UInt8(ascii: "\n") { line += 1 }
            if starts("<!--") {
                // A comment may say anything: skip to its end.
                while index < text.endIndex, !starts("-->") {
                    index += 1
                    if index < text.endIndex, text[index] == UInt8(ascii: "\n") { line += 1 }
                }
            } else if starts("<!DOCTYPE") {
                return line
            } else if text[index] == UInt8(ascii: "<"), index + 1 < text.endIndex {
                // An element's start: a name-start character (a letter, `_`, `:`, or beyond ASCII).
                let next = text[index + 1]
                if (next | 0x20) >= UInt8(ascii: "a") && (next | 0x20) <= UInt8(ascii: "z") || next == UInt8(ascii: "_")
                    || next == UInt8(ascii: ":") || next >= 0x80
                {
                    return nil
                }
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
