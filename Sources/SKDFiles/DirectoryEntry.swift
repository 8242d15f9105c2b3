import Glibc

extension UnsafeMutablePointer<dirent> {
    /// The entry's name, as readdir(3) gives it.
    package var name: String {
        withUnsafeBytes(of: pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
    }
}

/// The path of `name` in `directory`, without a doubled slash (`/` and `dir/` as given).
package func entryPath(_ name: String, in directory: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
}
