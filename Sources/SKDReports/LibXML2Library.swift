import Glibc

/// `libxml2.so.2`, opened with `dlopen` the first time an XML report is written or read, for the function
/// tables ``LibXML2Writer`` and ``LibXML2Reader``.
///
/// Why not linked: libxml2 brings ICU with it, and loading both at start-up cost every `skdpack` run
/// about 0.8 ms (a quarter of a small run, and the margin of the 2x-sed target) even when no XML is
/// written. Every function looked up takes and returns opaque pointers, C strings and `int`s, so no
/// libxml2 type is needed; the XSD validator, which reads libxml2's structures, links it through the
/// `CLibXML2` system-library target (module `SKDReportCheck`).
struct LibXML2Library: @unchecked Sendable {
    // @unchecked: the handle is only ever passed to dlsym(3), which may be called from any thread.

    /// libxml2 could not be opened, or lacks a function.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    static let name = "libxml2.so.2"
    private let handle: UnsafeMutableRawPointer

    /// The library, opened once; the same error every time if it cannot be.
    static func open() throws(Unavailable) -> LibXML2Library {
        switch opened {
        case .success(let library): return library
        case .failure(let error): throw error
        }
    }

    private static let opened = Result { () throws(Unavailable) -> LibXML2Library in
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw Unavailable(description: "XML reports need libxml2, which could not be loaded (\(reason)); install libxml2")
        }
        return LibXML2Library(handle: handle)
    }

    /// The function `name`, as the C function type `T` it is declared with.
    func function<T>(_ name: String) throws(Unavailable) -> T {
        guard let address = dlsym(handle, name) else { throw Unavailable(description: "\(Self.name) has no \(name)") }
        return unsafeBitCast(address, to: T.self)
    }
}
