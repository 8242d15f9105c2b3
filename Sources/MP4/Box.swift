/// One box of an ISO BMFF file: its type, where it starts, and the range of its payload (after the size,
/// type, 64-bit size and `uuid` user type), all checked against the box that holds it.
struct Box {
    var type: FourCC
    /// The 16-byte user type of a `uuid` box.
    var userType: [UInt8]?
    /// Where the box starts in the bytes read.
    var start: Int
    /// The payload: from after the header to the end of the box.
    var payload: Range<Int>
    /// The types from the top level down to this box.
    var path: [String]

    var end: Int { payload.upperBound }
}

/// Reads the boxes inside a range of an init segment, one after another, and the fields inside a box;
/// every read is checked against the range, so a size that lies is an error, never a read past the end.
struct BoxReader {
    let bytes: [UInt8]
    /// Added to every offset in an error: where `bytes` starts in the file (a `BYTERANGE`'s start).
    let baseOffset: Int

    /// Calls `body` with each box in `range`, in order, each checked to fit; `parent` is the path of the box
    /// they are in. Nothing is kept: a file of two million empty boxes costs time, not memory.
    func forEachBox(
        in range: Range<Int>, parent: [String], _ body: (Box) throws(MP4FormatError) -> Void
    ) throws(MP4FormatError) {
        var position = range.lowerBound
        while position < range.upperBound {
            let box = try header(at: position, within: range, parent: parent)
            try body(box)
            position = box.end
        }
    }

    /// The box starting at `position`, which must end within `range`.
    private func header(at position: Int, within range: Range<Int>, parent: [String]) throws(MP4FormatError) -> Box {
        let left = range.upperBound - position
        guard left >= 8 else {
            throw error(at: position, parent, "\(left) bytes left where a box header (8 bytes) should start")
        }
        let size32 = UInt64(u32(at: position))
        let type = FourCC(u32(at: position + 4))
        let path = parent + [type.description]
        var headerSize = 8
        var size = size32
        switch size32 {
        case 0:
            // "The box extends to the end of the file": only the last box may say so.
            size = UInt64(left)
        case 1:
            guard left >= 16 else { throw error(at: position, path, "a 64-bit size is announced but only \(left) bytes are left") }
            size = u64(at: position + 8)
            headerSize = 16
        default:
            break
        }
        var userType: [UInt8]?
        if type == FourCC("uuid") {
            guard left >= headerSize + 16 else { throw error(at: position, path, "the 16-byte user type is cut off") }
            userType = Array(bytes[(position + headerSize)..<(position + headerSize + 16)])
            headerSize += 16
        }
        guard size >= UInt64(headerSize) else {
            throw error(at: position, path, "its size \(size) is smaller than its own header (\(headerSize) bytes)")
        }
        guard size <= UInt64(left) else {
            throw error(
                at: position, path,
                "its size \(size) runs past the end of \(parent.isEmpty ? "the file" : "its parent") (\(left) bytes left)")
        }
        let end = position + Int(size)
        return Box(type: type, userType: userType, start: position, payload: (position + headerSize)..<end, path: path)
    }

    // MARK: Fields

    /// A cursor over `box`'s payload for its fields.
    func fields(of box: Box, from offset: Int = 0) -> FieldCursor {
        FieldCursor(reader: self, box: box, position: box.payload.lowerBound + offset)
    }

    func u32(at position: Int) -> UInt32 {
        bytes[position..<(position + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    func u64(at position: Int) -> UInt64 {
        bytes[position..<(position + 8)].reduce(0) { $0 << 8 | UInt64($1) }
    }

    func error(at position: Int, _ path: [String], _ reason: String) -> MP4FormatError {
        MP4FormatError(offset: baseOffset + position, boxPath: path, reason: reason)
    }
}

/// The fields of one box's payload, read in order; reading past the payload is an error naming the field.
struct FieldCursor {
    let reader: BoxReader
    let box: Box
    var position: Int

    var remaining: Int { box.end - position }

    mutating func bytes(_ count: Int, _ field: String) throws(MP4FormatError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw reader.error(at: box.start, box.path, "\(field) needs \(count) bytes but only \(remaining) are left in the box")
        }
        defer { position += count }
        return reader.bytes[position..<(position + count)]
    }

    mutating func u8(_ field: String) throws(MP4FormatError) -> UInt8 { try bytes(1, field).first! }

    mutating func u16(_ field: String) throws(MP4FormatError) -> UInt16 {
        try bytes(2, field).reduce(0) { $0 << 8 | UInt16($1) }
    }

    mutating func u32(_ field: String) throws(MP4FormatError) -> UInt32 {
        try bytes(4, field).reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func fourCC(_ field: String) throws(MP4FormatError) -> FourCC { FourCC(try u32(field)) }

    mutating func skip(_ count: Int, _ field: String) throws(MP4FormatError) { _ = try bytes(count, field) }

    /// A full box's version and flags.
    mutating func versionAndFlags() throws(MP4FormatError) -> (version: UInt8, flags: UInt32) {
        let word = try u32("version and flags")
        return (UInt8(word >> 24), word & 0x00FF_FFFF)
    }
}
