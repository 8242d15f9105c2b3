import Glibc
import HLS

/// A temporary file with no name (`tmpfile`: removed from its directory as it is made): written through its
/// descriptor like any file, copied out whole, gone when it is released, and left behind by no killed run.
/// What a dry run's diff of a title is held in until the title is known whole.
public final class UnnamedFile {
    private let file: UnsafeMutablePointer<FILE>
    public var fd: Int32 { fileno(file) }
    /// Its name in messages.
    public let name: String

    public init(name: String) throws(IOError) {
        guard let file = tmpfile() else { throw IOError(path: name, operation: "create a temporary file for", errno: errno) }
        self.file = file
        self.name = name
    }

    deinit { fclose(file) }

    /// Its bytes, from the start, written to `destination` (`path` in messages).
    public func copy(to destination: Int32, path: String) throws(IOError) {
        try FileCopy.copy(fd, named: name, to: destination, path: path)
    }
}
