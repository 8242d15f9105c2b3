/// The libxml2 functions the XML readers use: the `xmlTextReader` pull parser over a buffer, looked up in
/// ``LibXML2Library`` the first time an XML document (a report, a CPIX document) is read.
package struct LibXML2Reader: Sendable {
    package typealias Pointer = OpaquePointer
    package typealias Text = UnsafePointer<UInt8>?

    package let readerForMemory:
        @convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> Pointer?
    package let freeReader: @convention(c) (Pointer?) -> Void
    package let read: @convention(c) (Pointer?) -> Int32
    package let nodeType: @convention(c) (Pointer?) -> Int32
    package let isEmptyElement: @convention(c) (Pointer?) -> Int32
    package let localName: @convention(c) (Pointer?) -> Text
    package let namespaceURI: @convention(c) (Pointer?) -> Text
    package let value: @convention(c) (Pointer?) -> Text
    package let moveToNextAttribute: @convention(c) (Pointer?) -> Int32
    package let moveToElement: @convention(c) (Pointer?) -> Int32
    /// Where the parser is: for an error.
    package let lineNumber: @convention(c) (Pointer?) -> Int32
    package let currentNode: @convention(c) (Pointer?) -> Pointer?
    /// Where a node starts.
    package let nodeLine: @convention(c) (Pointer?) -> Int

    /// The `xmlParserOption` bits skdpack sets (values from libxml2's `parser.h`, held to it by
    /// `LibXML2BindingTests`). Loading a DTD (`XML_PARSE_DTDLOAD`) and substituting entities
    /// (`XML_PARSE_NOENT`) are left off: a document can make skdpack read nothing but itself.
    package struct ParserOptions: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }
        /// `XML_PARSE_NOERROR`: errors are not printed on standard error; the reader reports them.
        package static let noErrors = ParserOptions(rawValue: 1 << 5)
        /// `XML_PARSE_NOWARNING`.
        package static let noWarnings = ParserOptions(rawValue: 1 << 6)
        /// `XML_PARSE_NONET`: no network access, whatever the document refers to.
        package static let noNetwork = ParserOptions(rawValue: 1 << 11)
    }

    /// What every document skdpack reads is parsed with.
    package static let options: ParserOptions = [.noNetwork, .noErrors, .noWarnings]

    /// The node types the report reader meets (`xmlReaderTypes`).
    package enum NodeType: Int32 {
        case element = 1
        case text = 3
        case cdata = 4
        case significantWhitespace = 14
        case endElement = 15
    }

    package static func load() throws(LibXML2Library.Unavailable) -> LibXML2Reader {
        switch loaded {
        case .success(let functions): return functions
        case .failure(let error): throw error
        }
    }

    private static let loaded = Result { () throws(LibXML2Library.Unavailable) in
        try LibXML2Reader(library: LibXML2Library.open())
    }

    private init(library: LibXML2Library) throws(LibXML2Library.Unavailable) {
        func function<T>(_ name: String) throws(LibXML2Library.Unavailable) -> T { try library.function(name) }
        readerForMemory = try function("xmlReaderForMemory")
        freeReader = try function("xmlFreeTextReader")
        read = try function("xmlTextReaderRead")
        nodeType = try function("xmlTextReaderNodeType")
        isEmptyElement = try function("xmlTextReaderIsEmptyElement")
        localName = try function("xmlTextReaderConstLocalName")
        namespaceURI = try function("xmlTextReaderConstNamespaceUri")
        value = try function("xmlTextReaderConstValue")
        moveToNextAttribute = try function("xmlTextReaderMoveToNextAttribute")
        moveToElement = try function("xmlTextReaderMoveToElement")
        lineNumber = try function("xmlTextReaderGetParserLineNumber")
        currentNode = try function("xmlTextReaderCurrentNode")
        nodeLine = try function("xmlGetLineNo")
    }
}
