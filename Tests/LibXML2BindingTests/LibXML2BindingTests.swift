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

@Suite("libxml2 as skdpack opens it")
struct LibXML2BindingTests {
    @Test("the tables hold the functions of the libxml2 this test links, looked up by name")
    func sameFunctions() throws {
        writerMatchesHeaders()
        let library = try LibXML2Library.open()
        // The library dlopen found is the one linked here: the same function at the same address.
        let linked = unsafeBitCast(
            xmlTextWriterStartElement as @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?) -> Int32, to: UnsafeMutableRawPointer.self)
        #expect(library.address(of: "xmlTextWriterStartElement") == linked)
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
