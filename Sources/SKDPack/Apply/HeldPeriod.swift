import HLS

/// The lines of a key period, held from its first key to its first segment so that a FairPlay key can be
/// inserted after its last key: their bytes one after another in a buffer that keeps its capacity from
/// one period to the next, and each line's place in it. A FairPlay key rewritten as it was read is held as
/// its line as read and its new content; only those the general path rewrites are held as keys.
///
/// Held lines were values of their own before (an array of bytes, a parsed key), copied into the list and
/// out of it and released at every period: atomic reference counting, the largest part of what a
/// key-rotating migration spent over reading its playlist. A line here is numbers.
struct HeldPeriod {
    enum Line {
        /// Bytes passed on as they are, terminators included: `lineCount` lines, the first numbered
        /// `firstLine`.
        case bytes(Range<Int>, firstLine: Int, lineCount: Int)
        /// A key line written as it is (another system's, or a FairPlay key no pass rewrites): its content
        /// and terminator.
        case key(Range<Int>, terminator: LineTerminator, line: Int)
        /// The FairPlay key ``fairPlayKeys``[`slot`], for the general path to rewrite.
        case fairPlayKey(slot: Int, terminator: LineTerminator, line: Int)
        /// A FairPlay key rewritten as it was read: its content and terminator as read (`read`), its new
        /// content (`nil`: the same), the key it makes for the master, ``sessionKeys``[`sessionKey`], and
        /// whether its URI is key truth's (the change then names that key).
        case rewrittenKey(
            read: Range<Int>, rewritten: Range<Int>?, terminator: LineTerminator, line: Int, sessionKey: Int?, namesTruthKey: Bool)
    }

    private(set) var bytes: [UInt8] = []
    private(set) var lines: [Line] = []
    private(set) var fairPlayKeys: [KeyLine] = []
    private(set) var sessionKeys: [KeyAttributes] = []

    /// Holds lines passed on as they are (a run, or a line that is not a key).
    mutating func hold(_ raw: UnsafeRawBufferPointer, firstLine: Int, lineCount: Int) {
        lines.append(.bytes(append(raw), firstLine: firstLine, lineCount: lineCount))
    }

    /// Holds a key line written as it is: `raw` is its content and terminator.
    mutating func holdKey(_ raw: UnsafeRawBufferPointer, terminator: LineTerminator, line: Int) {
        lines.append(.key(append(raw), terminator: terminator, line: line))
    }

    /// Holds a FairPlay key a pass may rewrite.
    mutating func holdFairPlayKey(_ key: KeyLine, terminator: LineTerminator, line: Int) {
        lines.append(.fairPlayKey(slot: fairPlayKeys.count, terminator: terminator, line: line))
        fairPlayKeys.append(key)
    }

    /// Holds a FairPlay key rewritten as it was read: `raw` is its content and terminator as read,
    /// `rewritten` its new content (`nil`: unchanged), `sessionKey` what it gives its master.
    mutating func holdRewrittenKey(
        _ raw: UnsafeRawBufferPointer, rewritten: [UInt8]?, terminator: LineTerminator, line: Int, sessionKey: KeyAttributes?,
        namesTruthKey: Bool
    ) {
        let read = append(raw)
        let new = rewritten.map { rewritten in rewritten.withUnsafeBytes { append($0) } }
        lines.append(
            .rewrittenKey(
                read: read, rewritten: new, terminator: terminator, line: line, sessionKey: sessionKey.map { _ in sessionKeys.count },
                namesTruthKey: namesTruthKey))
        if let sessionKey { sessionKeys.append(sessionKey) }
    }

    /// The content (without its terminator) of the line held at `read`.
    static func content(_ read: Range<Int>, terminator: LineTerminator) -> Range<Int> {
        read.lowerBound..<(read.upperBound - terminator.length)
    }

    /// Empties the period, keeping the storage for the next.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        // Most periods hold neither (keys rewritten as read hold bytes): emptying an empty array is not free.
        if !fairPlayKeys.isEmpty { fairPlayKeys.removeAll(keepingCapacity: true) }
        if !sessionKeys.isEmpty { sessionKeys.removeAll(keepingCapacity: true) }
    }

    private mutating func append(_ raw: UnsafeRawBufferPointer) -> Range<Int> {
        let start = bytes.count
        bytes.append(contentsOf: raw)
        return start..<bytes.count
    }
}
