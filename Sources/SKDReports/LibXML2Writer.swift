import Glibc

/// The libxml2 functions the XML writers use (`xmlTextWriter` over an `xmlBuffer`), looked up in
/// `libxml2.so.2` the first time a report is written as XML.
///
/// Why not linked: libxml2 brings ICU with it, and loading both at start-up cost every `skdpack` run
/// about 0.8 ms (a quarter of a small run, and the margin of the 2x-sed target) even when no XML is
/// written. Every function here takes and returns opaque pointers and `int`s, so no libxml2 type is
/// needed; the XSD validator, which reads libxml2's structures, links it through the `CLibXML2`
/// system-library target (module `SKDReportCheck`).
struct LibXML2Writer {
    /// libxml2 could not be opened, or lacks a function.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

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
    static func load() throws(Unavailable) -> LibXML2Writer {
        switch loaded {
        case .success(let functions): return functions
        case .failure(let error): throw error
        }
    }

    // Set once, here, and only called afterwards (libxml2 initialises itself on first use of the writer).
    private static let loaded = Result { () throws(Unavailable) in
        try LibXML2Writer(library: "libxml2.so.2")
    }

    private init(library: String) throws(Unavailable) {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw Unavailable(description: "XML reports need libxml2, which could not be loaded (\(reason)); install libxml2")
        }
        func function<T>(_ name: String) throws(Unavailable) -> T {
            guard let address = dlsym(handle, name) else { throw Unavailable(description: "\(library) has no \(name)") }
            return unsafeBitCast(address, to: T.self)
        }
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
