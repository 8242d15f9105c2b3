/// One libxml2 `xmlTextReader` over a document in memory, and the memory it reads.
///
/// libxml2 reads the document's bytes lazily, as the reader advances, so they must stay where they are for
/// the reader's whole life: this type keeps its own copy, frees the reader and then the copy, and never lets
/// a pointer into a Swift array outlive the closure that lent it.
package final class XMLTextReader {
    package let reader: OpaquePointer
    private let bytes: UnsafeMutableBufferPointer<CChar>
    private let functions: LibXML2Reader

    /// `nil` when libxml2 cannot start reading (out of memory) or the document is past 2 GiB, which
    /// libxml2's `int` sizes cannot address.
    package init?(_ document: [UInt8], encoding: String?, functions: LibXML2Reader) {
        guard document.count < Int(Int32.max) else { return nil }
        let bytes = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(document.count, 1))
        document.withUnsafeBytes { UnsafeMutableRawBufferPointer(bytes).copyMemory(from: $0) }
        guard
            let reader = functions.readerForMemory(bytes.baseAddress, Int32(document.count), nil, encoding, LibXML2Reader.options.rawValue)
        else {
            bytes.deallocate()
            return nil
        }
        self.reader = reader
        self.bytes = bytes
        self.functions = functions
    }

    deinit {
        functions.freeReader(reader)
        bytes.deallocate()
    }
}
