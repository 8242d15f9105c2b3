import SKDReportModel
import SKDXML

/// The libxml2 functions the XML writers use (`xmlTextWriter` over an `xmlBuffer`), looked up in
/// ``LibXML2Library`` the first time a report is written as XML.
struct LibXML2Writer {
    typealias Pointer = OpaquePointer
    typealias Text = UnsafePointer<UInt8>?

    let bufferCreate: @convention(c) () -> Pointer?
    let bufferFree: @convention(c) (Pointer?) -> Void
    let bufferContent: @convention(c) (Pointer?) -> UnsafePointer<UInt8>?
    let bufferLength: @convention(c) (Pointer?) -> Int32
    let bufferEmpty: @convention(c) (Pointer?) -> Void
    let newTextWriterMemory: @convention(c) (Pointer?, Int32) -> Pointer?
    let freeTextWriter: @convention(c) (Pointer?) -> Void
    let setIndent: @convention(c) (Pointer?, Int32) -> Int32
    let setIndentString: @convention(c) (Pointer?, Text) -> Int32
    let startDocument: @convention(c) (Pointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let startElement: @convention(c) (Pointer?, Text) -> Int32
    let writeAttribute: @convention(c) (Pointer?, Text, Text) -> Int32
    let writeString: @convention(c) (Pointer?, Text) -> Int32
    let endElement: @convention(c) (Pointer?) -> Int32
    let endDocument: @convention(c) (Pointer?) -> Int32
    let flush: @convention(c) (Pointer?) -> Int32

    /// The functions, looked up once; the same error every time if they cannot be.
    static func load() throws(LibXML2Library.Unavailable) -> LibXML2Writer {
        switch loaded {
        case .success(let functions): return functions
        case .failure(let error): throw error
        }
    }

    // Set once, here, and only called afterwards (libxml2 set up once per process by LibXML2Library.open).
    private static let loaded = Result { () throws(LibXML2Library.Unavailable) in
        try LibXML2Writer(library: LibXML2Library.open())
    }

    private init(library: LibXML2Library) throws(LibXML2Library.Unavailable) {
        func function<T>(_ name: String) throws(LibXML2Library.Unavailable) -> T { try library.function(name) }
        bufferCreate = try function("xmlBufferCreate")
        bufferFree = try function("xmlBufferFree")
        bufferContent = try function("xmlBufferContent")
        bufferLength = try function("xmlBufferLength")
        bufferEmpty = try function("xmlBufferEmpty")
        newTextWriterMemory = try function("xmlNewTextWriterMemory")
        freeTextWriter = try function("xmlFreeTextWriter")
        setIndent = try function("xmlTextWriterSetIndent")
        setIndentString = try function("xmlTextWriterSetIndentString")
        startDocument = try function("xmlTextWriterStartDocument")
        startElement = try function("xmlTextWriterStartElement")
        writeAttribute = try function("xmlTextWriterWriteAttribute")
        writeString = try function("xmlTextWriterWriteString")
        endElement = try function("xmlTextWriterEndElement")
        endDocument = try function("xmlTextWriterEndDocument")
        flush = try function("xmlTextWriterFlush")
    }
}
