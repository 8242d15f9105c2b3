/// The libxml2 functions ``ReportXMLReader`` uses: the `xmlTextReader` pull parser over a buffer, looked up
/// in ``LibXML2Library`` the first time an XML report is read.
struct LibXML2Reader {
    typealias Pointer = OpaquePointer
    typealias Text = UnsafePointer<UInt8>?

    let readerForMemory: @convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> Pointer?
    let freeReader: @convention(c) (Pointer?) -> Void
    let read: @convention(c) (Pointer?) -> Int32
    let nodeType: @convention(c) (Pointer?) -> Int32
    let isEmptyElement: @convention(c) (Pointer?) -> Int32
    let localName: @convention(c) (Pointer?) -> Text
    let namespaceURI: @convention(c) (Pointer?) -> Text
    let value: @convention(c) (Pointer?) -> Text
    let moveToNextAttribute: @convention(c) (Pointer?) -> Int32
    let moveToElement: @convention(c) (Pointer?) -> Int32
    /// Where the parser is: for an error.
    let lineNumber: @convention(c) (Pointer?) -> Int32
    let currentNode: @convention(c) (Pointer?) -> Pointer?
    /// Where a node starts.
    let nodeLine: @convention(c) (Pointer?) -> Int

    /// The `xmlParserOption` bits skdpack sets (values from libxml2's `parser.h`, held to it by
    /// `LibXML2BindingTests`). Loading a DTD (`XML_PARSE_DTDLOAD`) and substituting entities
    /// (`XML_PARSE_NOENT`) are left off: a document can make skdpack read nothing but itself.
    struct ParserOptions: OptionSet {
        let rawValue: Int32
        /// `XML_PARSE_NOERROR`: errors are not printed on standard error; the reader reports them.
        static let noErrors = ParserOptions(rawValue: 1 << 5)
        /// `XML_PARSE_NOWARNING`.
        static let noWarnings = ParserOptions(rawValue: 1 << 6)
        /// `XML_PARSE_NONET`: no network access, whatever the document refers to.
        static let noNetwork = ParserOptions(rawValue: 1 << 11)
    }

    /// What every document skdpack reads is parsed with.
    static let options: ParserOptions = [.noNetwork, .noErrors, .noWarnings]

    /// The node types the report reader meets (`xmlReaderTypes`).
    enum NodeType: Int32 {
        case element = 1
        case text = 3
        case cdata = 4
        case significantWhitespace = 14
        case endElement = 15
    }

    static func load() throws(LibXML2Library.Unavailable) -> LibXML2Reader {
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
