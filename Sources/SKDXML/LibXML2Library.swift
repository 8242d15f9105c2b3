import Glibc

/// libxml2, opened with `dlopen` the first time an XML report is written, for
/// the function table of the report writer.
///
/// libxml2 2.14 changed its soname from `libxml2.so.2` to `libxml2.so.16`; the functions skdpack uses kept
/// their signatures (the `LibXML2BindingTests` target holds every one to the headers at compile time), so
/// both are tried, the newer first, and an error names each file tried and why it did not load.
///
/// Why not linked: libxml2 brings ICU with it, and loading both at start-up cost every `skdpack` run
/// about 0.8 ms (a quarter of a small run, and the margin of the 2x-sed target) even when no XML is
/// written. Every function looked up takes and returns opaque pointers, C strings and `int`s, so no
/// libxml2 type is needed; the XSD validator, which reads libxml2's structures, links it through the
/// `CLibXML2` system-library target (module `SKDReportCheck`).
package struct LibXML2Library: @unchecked Sendable {
    // @unchecked: the handle is only ever passed to dlsym(3), which may be called from any thread.

    /// libxml2 could not be opened, or lacks a function.
    package struct Unavailable: Error, CustomStringConvertible {
        package var description: String
    }

    /// The sonames tried, in order.
    package static let sonames = ["libxml2.so.16", "libxml2.so.2"]
    /// The soname that loaded.
    package let name: String
    private let handle: UnsafeMutableRawPointer

    /// The library, opened once; the same error every time if it cannot be.
    package static func open() throws(Unavailable) -> LibXML2Library {
        switch opened {
        case .success(let library): return library
        case .failure(let error): throw error
        }
    }

    /// Opened and set up (`xmlInitParser`) once per process: libxml2's set-up is not safe on two threads at
    /// once, so every user of libxml2 here (the report writer, the XSD validator, the tests' oracle) comes
    /// through this one.
    private static let opened = Result { () throws(Unavailable) in
        let library = try open(trying: sonames)
        let initialize: @convention(c) () -> Void = try library.function("xmlInitParser")
        initialize()
        return library
    }

    /// The first of `names` that loads, or an error that names each and why it did not.
    package static func open(trying names: [String]) throws(Unavailable) -> LibXML2Library {
        var failures: [String] = []
        for name in names {
            // Lazy: the functions of libxml2, ICU and libstdc++ are bound when first called, not all ~1,500
            // at load (0.1 ms of each run that reads a CPIX document or writes an XML report). A library
            // missing a function its own dependencies need would then fail at that call, not here; the
            // distributions' packages, built together, do not.
            if let handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL) { return LibXML2Library(name: name, handle: handle) }
            failures.append(dlerror().map { String(cString: $0) } ?? "\(name): not found")
        }
        throw Unavailable(
            description: "XML needs libxml2, and none of \(names.joined(separator: ", ")) could be loaded ("
                + failures.joined(separator: "; ") + "); install libxml2 (Debian and Ubuntu: apt-get install libxml2)")
    }

    /// The function `symbol`, as the C function type `T` it is declared with.
    package func function<T>(_ symbol: String) throws(Unavailable) -> T {
        guard let address = dlsym(handle, symbol) else { throw Unavailable(description: "\(name) has no \(symbol)") }
        return unsafeBitCast(address, to: T.self)
    }

    /// The address of `symbol`, for checking that a table holds the library's own functions.
    package func address(of symbol: String) -> UnsafeMutableRawPointer? { dlsym(handle, symbol) }
}
