/// An init segment that does not hold together: where (the byte offset of the box, from the start of the
/// file) and which box (its path from the top, `moov/trak/mdia/minf/stbl/stsd/encv/sinf/schi/tenc`), and why.
public struct MP4FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offset of the box in the file (the start of the byte range read, for a `BYTERANGE`, included).
    public var offset: Int
    /// The path of box types from the top level down to the box at fault; empty for the file itself.
    public var boxPath: [String]
    public var reason: String

    public init(offset: Int, boxPath: [String], reason: String) {
        self.offset = offset
        self.boxPath = boxPath
        self.reason = reason
    }

    public var description: String {
        guard let box = boxPath.last else { return "offset \(offset): \(reason)" }
        // A top-level box is its own path: said once.
        guard boxPath.count > 1 else { return "offset \(offset): box '\(box)': \(reason)" }
        return "offset \(offset): box '\(box)' (\(boxPath.joined(separator: "/"))): \(reason)"
    }
}
