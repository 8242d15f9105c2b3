import SKDReportModel
import SKDXML

/// A thin, safe layer over libxml2's `xmlTextWriter` writing into memory: every call's return code is
/// checked (a failure throws), the writer and its buffer are freed on every path, and text goes through
/// libxml2's escaping after characters XML 1.0 cannot hold at all are replaced.
final class XMLDocumentWriter {
    struct Failure: Error, CustomStringConvertible {
        var description: String

        init(operation: String) { description = "libxml2 could not \(operation)" }
        init(_ unavailable: LibXML2Library.Unavailable) { description = unavailable.description }
    }

    private let xml: LibXML2Writer
    private let buffer: OpaquePointer
    private let writer: OpaquePointer

    init() throws(Failure) {
        do {
            xml = try LibXML2Writer.load()
        } catch {
            throw Failure(error)
        }
        guard let buffer = xml.bufferCreate() else { throw Failure(operation: "allocate a buffer") }
        guard let writer = xml.newTextWriterMemory(buffer, 0) else {
            xml.bufferFree(buffer)
            throw Failure(operation: "create a writer")
        }
        self.buffer = buffer
        self.writer = writer
        try check(xml.setIndent(writer, 1), "set indentation")
        try check(xml.setIndentString(writer, "  "), "set the indent string")
    }

    deinit {
        xml.freeTextWriter(writer)
        xml.bufferFree(buffer)
    }

    func startDocument() throws(Failure) {
        try check(xml.startDocument(writer, "1.0", "UTF-8", nil), "start the document")
    }

    func startElement(_ name: String) throws(Failure) {
        try check(xml.startElement(writer, name), "start element \(name)")
    }

    func attribute(_ name: String, _ value: String) throws(Failure) {
        try check(xml.writeAttribute(writer, name, Self.xmlSafe(value)), "write attribute \(name)")
    }

    func attribute(_ name: String, _ value: Int) throws(Failure) { try attribute(name, String(value)) }

    func text(_ value: String) throws(Failure) {
        try check(xml.writeString(writer, Self.xmlSafe(value)), "write text")
    }

    func endElement() throws(Failure) {
        try check(xml.endElement(writer), "end an element")
    }

    /// `<name attributes…>text</name>`.
    func element(_ name: String, text value: String? = nil, _ attributes: KeyValuePairs<String, String> = [:]) throws(Failure) {
        try startElement(name)
        for (key, attributeValue) in attributes { try attribute(key, attributeValue) }
        if let value { try text(value) }
        try endElement()
    }

    /// Ends the document and returns the bytes not yet drained.
    func finish() throws(Failure) -> [UInt8] {
        try check(xml.endDocument(writer), "end the document")
        return try drain()
    }

    /// The bytes written since the last drain, taken out of the buffer: a long document goes to its file
    /// piece by piece instead of growing in memory.
    func drain() throws(Failure) -> [UInt8] {
        try check(xml.flush(writer), "flush the writer")
        guard let content = xml.bufferContent(buffer) else { throw Failure(operation: "read the buffer") }
        let bytes = Array(UnsafeBufferPointer(start: content, count: Int(xml.bufferLength(buffer))))
        xml.bufferEmpty(buffer)
        return bytes
    }

    private func check(_ result: Int32, _ operation: String) throws(Failure) {
        guard result >= 0 else { throw Failure(operation: operation) }
    }

    /// `text` with every character XML 1.0 forbids even as a reference (C0 controls but tab, LF and CR;
    /// U+FFFE, U+FFFF) replaced by U+FFFD. Swift strings are valid UTF-8 already: invalid bytes were
    /// replaced when they were decoded.
    static func xmlSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !isAllowed($0) }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isAllowed($0) ? $0 : "\u{FFFD}" }))
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0..<0x20, 0xFFFE, 0xFFFF: false
        default: true
        }
    }
}
