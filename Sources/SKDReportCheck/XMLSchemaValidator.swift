import CLibXML2
import SKDXML

/// libxml2's one-time set-up (`xmlInitParser`), which is not safe to run on two threads at once: every
/// user of libxml2 in a process (the validator here, a test's own reader, the report writer) sets it up
/// through `LibXML2Library`'s, once.
public enum LibXML2 {
    private static let initialized: Bool = {
        // The library the report writer opens, set up there first (dlopen returns the one linked here where
        // their sonames agree, and this call then finds it set up); the one linked here set up after it.
        _ = try? LibXML2Library.open()
        xmlInitParser()
        return true
    }()

    /// Sets libxml2 up, once per process, whichever thread comes first; the others wait for it.
    public static func initialize() { _ = initialized }
}

/// Checks XML documents against an XSD with libxml2's schema validator: what the tests run on every
/// report they make, and what a consumer can run on a report it received.
///
/// Sendable: the parsed schema is only read after `init`, and each validation has a context of its own,
/// which is how libxml2 allows one schema to serve several threads.
public final class XMLSchemaValidator: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var messages: [String]
        public var description: String { messages.joined(separator: "\n") }
    }

    private let schema: xmlSchemaPtr

    /// Parses `xsd`; throws with libxml2's messages if it is not a valid schema.
    public init(xsd: [UInt8]) throws(Failure) {
        LibXML2.initialize()
        let collector = MessageCollector()
        let parsed: xmlSchemaPtr? = xsd.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars -> xmlSchemaPtr? in
                guard let context = xmlSchemaNewMemParserCtxt(chars.baseAddress, Int32(chars.count)) else { return nil }
                defer { xmlSchemaFreeParserCtxt(context) }
                xmlSchemaSetParserStructuredErrors(context, MessageCollector.handler, collector.pointer)
                return xmlSchemaParse(context)
            }
        }
        guard let parsed else { throw Failure(messages: collector.messages.isEmpty ? ["the XSD could not be parsed"] : collector.messages) }
        schema = parsed
    }

    deinit { xmlSchemaFree(schema) }

    /// Why `document` is not well-formed XML, or `nil` when it is (any XML: JUnit files have no XSD here).
    public static func wellFormednessProblem(in document: [UInt8]) -> String? {
        LibXML2.initialize()
        return document.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars -> String? in
                xmlResetLastError()
                guard let doc = xmlReadMemory(chars.baseAddress, Int32(chars.count), "document.xml", nil, parseOptions) else {
                    return lastErrorMessage()
                }
                xmlFreeDoc(doc)
                return nil
            }
        }
    }

    /// No network, and parse errors kept off standard error (they are returned).
    private static let parseOptions = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)

    private static func lastErrorMessage() -> String {
        let error = xmlGetLastError()
        let message = error?.pointee.message.map { String(cString: $0) } ?? "unknown error"
        return "not well-formed XML, line \(error?.pointee.line ?? 0): \(message.trimmingNewline)"
    }

    /// The problems libxml2 finds in `document` (not well-formed, or not valid against the schema); empty
    /// when it is valid.
    public func problems(in document: [UInt8]) -> [String] {
        let collector = MessageCollector()
        return document.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars -> [String] in
                xmlResetLastError()
                guard let doc = xmlReadMemory(chars.baseAddress, Int32(chars.count), "report.xml", nil, Self.parseOptions) else {
                    return [Self.lastErrorMessage()]
                }
                defer { xmlFreeDoc(doc) }
                guard let context = xmlSchemaNewValidCtxt(schema) else { return ["libxml2 could not allocate a validator"] }
                defer { xmlSchemaFreeValidCtxt(context) }
                xmlSchemaSetValidStructuredErrors(context, MessageCollector.handler, collector.pointer)
                let result = xmlSchemaValidateDoc(context, doc)
                if result != 0, collector.messages.isEmpty { return ["the document is not valid (libxml2 code \(result))"] }
                return collector.messages
            }
        }
    }
}

/// Gathers libxml2's structured errors as `line N: message` strings.
private final class MessageCollector {
    var messages: [String] = []

    var pointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static let handler: xmlStructuredErrorFunc = { context, error in
        guard let context, let error else { return }
        let collector = Unmanaged<MessageCollector>.fromOpaque(context).takeUnretainedValue()
        let text = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        collector.messages.append("line \(error.pointee.line): \(text.trimmingNewline)")
    }
}

extension String {
    fileprivate var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
