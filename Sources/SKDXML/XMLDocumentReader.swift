import CExpat
import Glibc

/// Reads an XML document into ``XMLElement``s with Expat, linked into the binary: nothing to load at run
/// time (libxml2 and the ICU it brings cost every `apply --cpix` about 2 ms to load), no network, no file
/// but the document, and a document with a DTD refused where the parser meets its `<!DOCTYPE`, before it
/// reads a declaration: a DTD declares entities, which can expand a few bytes into gigabytes or stand for
/// files to read, and neither CPIX nor skdpack's reports use one.
///
/// Encodings: UTF-8, UTF-16 (by its byte order mark or declaration), ISO-8859-1 and US-ASCII, which are
/// Expat's own; a document declaring any other is refused as such.
package enum XMLDocumentReader {
    /// The document is not well-formed XML (or has no element), with the line the parser stopped at.
    package struct Malformed: Error, CustomStringConvertible {
        package var line: Int
        package var reason: String
        /// Where on the line the parser stopped, when it says.
        package var column: Int?
        package var description: String { "line \(line)\(column.map { ", column \($0)" } ?? ""): \(reason)" }
    }

    /// The root element of `bytes`. `encoding` forces one (`"UTF-8"`); `nil` lets the parser tell from the
    /// byte order mark and the XML declaration, as a document from elsewhere (UTF-16) needs.
    package static func read(_ bytes: [UInt8], encoding: String?) throws(Malformed) -> XMLElement {
        guard bytes.count < Int(Int32.max) else {
            throw Malformed(line: 1, reason: "the document is 2 GiB or larger, more than the XML parser reads")
        }
        guard let parser = XML_ParserCreateNS(encoding, CChar(bitPattern: separator)) else {
            throw Malformed(line: 1, reason: "the XML parser could not start (out of memory)")
        }
        defer { XML_ParserFree(parser) }
        let tree = TreeBuilder(parser)
        XML_SetUserData(parser, Unmanaged.passUnretained(tree).toOpaque())
        XML_SetElementHandler(parser, startElement, endElement)
        XML_SetCharacterDataHandler(parser, characters)
        XML_SetStartDoctypeDeclHandler(parser, startDoctype)
        let status = withExtendedLifetime(tree) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { XML_Parse(parser, $0.baseAddress, Int32($0.count), 1) }
            }
        }
        if let line = tree.doctypeLine {
            throw Malformed(
                line: line,
                reason: "the document has a DTD (<!DOCTYPE …>), and documents with one are refused: a DTD declares entities, "
                    + "which can expand a few bytes into gigabytes or stand for files and URLs to read; neither CPIX nor skdpack's "
                    + "reports use one, so remove the <!DOCTYPE …> declaration")
        }
        guard status == XML_STATUS_OK else {
            let code = XML_GetErrorCode(parser)
            var problem = XML_ErrorString(code).map { String(cString: $0) } ?? "unknown error"
            if code == XML_ERROR_TAG_MISMATCH, let open = tree.open.last?.element {
                // Expat says where the wrong end tag is; the element it should have closed is known here.
                problem += ": this end tag does not close <\(open.name)>, opened on line \(open.line)"
            } else if tree.root == nil, code == XML_ERROR_SYNTAX || code == XML_ERROR_INVALID_TOKEN {
                // Refused before any element began: most likely not XML at all (a CSV, a JSON answer).
                problem += " before the first element: is this an XML document?"
            }
            throw Malformed(
                line: Int(XML_GetCurrentLineNumber(parser)), reason: "not well-formed XML: \(problem)",
                column: Int(XML_GetCurrentColumnNumber(parser)) + 1)
        }
        guard let root = tree.root else { throw Malformed(line: 1, reason: "the document has no element") }
        return root
    }

    /// What separates a name's namespace URI from its local name in the names the parser gives: a byte that
    /// UTF-8 never has, so no URI can hold it.
    private static let separator: UInt8 = 0xFF

    /// The elements as the parser reports them: the open ones, and the text of each.
    private final class TreeBuilder {
        let parser: XML_Parser
        var root: XMLElement?
        var open: [(element: XMLElement, text: [UInt8])] = []
        var doctypeLine: Int?

        init(_ parser: XML_Parser) { self.parser = parser }

        static func from(_ context: UnsafeMutableRawPointer?) -> TreeBuilder {
            Unmanaged<TreeBuilder>.fromOpaque(context!).takeUnretainedValue()
        }
    }

    /// A name as the parser gives it: `URI<separator>local`, or `local` for a name in no namespace.
    private static func name(_ text: UnsafePointer<CChar>) -> (namespace: String, local: String) {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
        guard let cut = bytes.lastIndex(of: separator) else { return ("", String(decoding: bytes, as: UTF8.self)) }
        return (String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[(cut + 1)...], as: UTF8.self))
    }

    private static let startElement: XML_StartElementHandler = { context, name, attributes in
        let tree = TreeBuilder.from(context)
        let (namespace, local) = XMLDocumentReader.name(name!)
        let element = XMLElement(name: local, namespace: namespace, line: Int(XML_GetCurrentLineNumber(tree.parser)))
        // Name, value, name, value, …, NULL; namespace declarations are not among them.
        var index = 0
        while let attribute = attributes?[index], let value = attributes?[index + 1] {
            element.attributes[XMLDocumentReader.name(attribute).local] = String(cString: value)
            index += 2
        }
        if let parent = tree.open.last {
            parent.element.elements.append(element)
        } else if tree.root == nil {
            tree.root = element
        }
        tree.open.append((element, []))
    }

    private static let endElement: XML_EndElementHandler = { context, _ in
        let tree = TreeBuilder.from(context)
        guard let (element, text) = tree.open.popLast() else { return }
        element.text = String(decoding: text, as: UTF8.self)
    }

    private static let characters: XML_CharacterDataHandler = { context, text, count in
        let tree = TreeBuilder.from(context)
        guard !tree.open.isEmpty, let text, count > 0 else { return }
        text.withMemoryRebound(to: UInt8.self, capacity: Int(count)) {
            tree.open[tree.open.count - 1].text.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(count)))
        }
    }

    private static let startDoctype: XML_StartDoctypeDeclHandler = { context, _, _, _, _ in
        let tree = TreeBuilder.from(context)
        tree.doctypeLine = Int(XML_GetCurrentLineNumber(tree.parser))
        XML_StopParser(tree.parser, XML_Bool(XML_FALSE))
    }
}
