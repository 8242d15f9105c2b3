import CLibXML2
import Glibc
import Testing

@testable import SKDReports
@testable import SKDXML

// skdpack opens libxml2 with dlopen (so that it and ICU are not loaded by every run) and calls it through
// function types written by hand. This file holds every one of those types to libxml2's own headers: each
// line hands the header's function where the table's field type is expected, so a type that does not match
// (a parameter, a return type, an int that is a long) fails the build, not a report at run time.

/// Compiles only when `header` has exactly the C type of `field`.
private func same<Table, Function>(_ field: KeyPath<Table, Function>, _ header: Function) {}

// The tables pass handles to libxml2's structures as `OpaquePointer`, as they do not see the structures;
// these check the rest of the type, and that the handle is a pointer to a structure.
private func same<Table, S>(_ field: KeyPath<Table, @convention(c) () -> OpaquePointer?>, _ header: () -> UnsafeMutablePointer<S>?) {}
private func same<Table, S>(_ field: KeyPath<Table, @convention(c) (OpaquePointer?) -> Void>, _ header: (UnsafeMutablePointer<S>?) -> Void)
{}
private func same<Table, S>(_ field: KeyPath<Table, @convention(c) (OpaquePointer?) -> Int32>, _ header: (UnsafePointer<S>?) -> Int32) {}
private func same<Table, S>(_ field: KeyPath<Table, @convention(c) (OpaquePointer?) -> Int>, _ header: (UnsafePointer<S>?) -> Int) {}
private func same<Table, S>(
    _ field: KeyPath<Table, @convention(c) (OpaquePointer?) -> UnsafePointer<UInt8>?>,
    _ header: (UnsafePointer<S>?) -> UnsafePointer<UInt8>?
) {}
private func same<Table, S>(
    _ field: KeyPath<Table, @convention(c) (OpaquePointer?, Int32) -> OpaquePointer?>,
    _ header: (UnsafeMutablePointer<S>?, Int32) -> OpaquePointer?
) {}
private func same<Table, S>(
    _ field: KeyPath<Table, @convention(c) (OpaquePointer?) -> OpaquePointer?>, _ header: (OpaquePointer?) -> UnsafeMutablePointer<S>?
) {}

/// The writer's table against `xmlwriter.h` and `tree.h`.
private func writerMatchesHeaders() {
    same(\LibXML2Writer.bufferCreate, xmlBufferCreate)
    same(\LibXML2Writer.bufferFree, xmlBufferFree)
    same(\LibXML2Writer.bufferContent, xmlBufferContent)
    same(\LibXML2Writer.bufferLength, xmlBufferLength)
    same(\LibXML2Writer.bufferEmpty, xmlBufferEmpty)
    same(\LibXML2Writer.newTextWriterMemory, xmlNewTextWriterMemory)
    same(\LibXML2Writer.freeTextWriter, xmlFreeTextWriter)
    same(\LibXML2Writer.setIndent, xmlTextWriterSetIndent)
    same(\LibXML2Writer.setIndentString, xmlTextWriterSetIndentString)
    same(\LibXML2Writer.startDocument, xmlTextWriterStartDocument)
    same(\LibXML2Writer.startElement, xmlTextWriterStartElement)
    same(\LibXML2Writer.writeAttribute, xmlTextWriterWriteAttribute)
    same(\LibXML2Writer.writeString, xmlTextWriterWriteString)
    same(\LibXML2Writer.endElement, xmlTextWriterEndElement)
    same(\LibXML2Writer.endDocument, xmlTextWriterEndDocument)
    same(\LibXML2Writer.flush, xmlTextWriterFlush)
}

/// The reader's table against `xmlreader.h` and `tree.h`.
private func readerMatchesHeaders() {
    same(\LibXML2Reader.readerForMemory, xmlReaderForMemory)
    same(\LibXML2Reader.freeReader, xmlFreeTextReader)
    same(\LibXML2Reader.read, xmlTextReaderRead)
    same(\LibXML2Reader.nodeType, xmlTextReaderNodeType)
    same(\LibXML2Reader.isEmptyElement, xmlTextReaderIsEmptyElement)
    same(\LibXML2Reader.localName, xmlTextReaderConstLocalName)
    same(\LibXML2Reader.namespaceURI, xmlTextReaderConstNamespaceUri)
    same(\LibXML2Reader.value, xmlTextReaderConstValue)
    same(\LibXML2Reader.moveToNextAttribute, xmlTextReaderMoveToNextAttribute)
    same(\LibXML2Reader.moveToElement, xmlTextReaderMoveToElement)
    same(\LibXML2Reader.lineNumber, xmlTextReaderGetParserLineNumber)
    same(\LibXML2Reader.currentNode, xmlTextReaderCurrentNode)
    same(\LibXML2Reader.nodeLine, xmlGetLineNo)
}

@Suite("libxml2 as skdpack opens it")
struct LibXML2BindingTests {
    @Test("the tables hold the functions of the libxml2 this test links, looked up by name")
    func sameFunctions() throws {
        writerMatchesHeaders()
        readerMatchesHeaders()
        let library = try LibXML2Library.open()
        // The library dlopen found is the one linked here: the same function at the same address.
        let linked = unsafeBitCast(
            xmlTextWriterStartElement as @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?) -> Int32, to: UnsafeMutableRawPointer.self)
        #expect(library.address(of: "xmlTextWriterStartElement") == linked)
        let reader = try LibXML2Reader.load()
        #expect(unsafeBitCast(reader.read, to: UnsafeMutableRawPointer.self) == library.address(of: "xmlTextReaderRead"))
    }

    @Test("the parser option bits are the header's: no network, no error or warning printed; no DTD, no entities")
    func optionBits() {
        #expect(LibXML2Reader.ParserOptions.noNetwork.rawValue == Int32(XML_PARSE_NONET.rawValue))
        #expect(LibXML2Reader.ParserOptions.noErrors.rawValue == Int32(XML_PARSE_NOERROR.rawValue))
        #expect(LibXML2Reader.ParserOptions.noWarnings.rawValue == Int32(XML_PARSE_NOWARNING.rawValue))
        let options = LibXML2Reader.options.rawValue
        for unwanted in [XML_PARSE_DTDLOAD, XML_PARSE_NOENT, XML_PARSE_DTDATTR, XML_PARSE_XINCLUDE, XML_PARSE_HUGE] {
            #expect(options & Int32(unwanted.rawValue) == 0)
        }
    }

    @Test("when no soname loads, the error names every file tried and why")
    func noLibrary() {
        #expect {
            try LibXML2Library.open(trying: ["libxml2-absent.so.16", "libxml2-absent.so.2"])
        } throws: { error in
            let text = String(describing: error)
            return text.contains("none of libxml2-absent.so.16, libxml2-absent.so.2 could be loaded")
                && text.contains("libxml2-absent.so.16: cannot open shared object file")
                && text.contains("libxml2-absent.so.2: cannot open shared object file") && text.contains("install libxml2")
        }
    }
}
