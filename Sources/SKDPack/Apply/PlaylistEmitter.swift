import HLS
import SKDBytes
import SKDTemplate

/// Where a pass of `apply` sends a playlist: kept bytes, replaced, removed and inserted lines.
protocol PlaylistEmitter: ~Copyable {
    /// Bytes written so far, to patch a value later; 0 where there is nothing to patch.
    var written: Int { get }
    /// Bytes passed on as they are: whole lines, `lineCount` of them, the first numbered `firstLine`.
    mutating func keep(_ bytes: UnsafeRawBufferPointer, firstLine: Int, lineCount: Int) throws(IOError)
    /// A line (content `old`) written as `new`, with its own terminator.
    mutating func replace(_ old: UnsafeRawBufferPointer, with new: UnsafeRawBufferPointer, terminator: LineTerminator) throws(IOError)
    /// A line (content `old`) left out.
    mutating func remove(_ old: [UInt8]) throws(IOError)
    /// A new line. `afterUnterminated` says the line before it had no terminator (it was the last line of
    /// the input), so a line break goes first and none after, keeping the missing final newline.
    mutating func insert(_ content: [UInt8], terminator: LineTerminator, afterUnterminated: Bool) throws(IOError)
}

extension PlaylistEmitter where Self: ~Copyable {
    /// A line (content `old`) written as `new`, both held in arrays.
    mutating func replace(_ old: [UInt8], with new: [UInt8], terminator: LineTerminator) throws(IOError) {
        var failure: IOError?
        old.withUnsafeBytes { old in
            new.withUnsafeBytes { new in
                do throws(IOError) {
                    try replace(old, with: new, terminator: terminator)
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
    }

    /// The bytes `range` of a buffer (the lines of a held key period), passed on as they are.
    mutating func keep(_ range: Range<Int>, of bytes: ByteBuffer, firstLine: Int, lineCount: Int) throws(IOError) {
        try keep(UnsafeRawBufferPointer(rebasing: bytes.bytes[range]), firstLine: firstLine, lineCount: lineCount)
    }
}

/// Writes the playlist.
struct SinkEmitter: PlaylistEmitter, ~Copyable {
    var sink: OutputSink
    private(set) var written = 0

    init(sink: consuming OutputSink) { self.sink = sink }

    mutating func keep(_ bytes: UnsafeRawBufferPointer, firstLine: Int, lineCount: Int) throws(IOError) {
        try sink.write(bytes)
        written += bytes.count
    }

    mutating func replace(_ old: UnsafeRawBufferPointer, with new: UnsafeRawBufferPointer, terminator: LineTerminator) throws(IOError) {
        try sink.write(new)
        try sink.write(terminator)
        written += new.count + terminator.length
    }

    mutating func remove(_ old: [UInt8]) throws(IOError) {}

    mutating func insert(_ content: [UInt8], terminator: LineTerminator, afterUnterminated: Bool) throws(IOError) {
        if afterUnterminated {
            try sink.write(terminator)
            try sink.write(content)
        } else {
            try sink.write(content)
            try sink.write(terminator)
        }
        written += content.count + terminator.length
    }
}

/// Writes nothing: for a pass that only decides (`--check`, the first pass before a diff).
struct DiscardEmitter: PlaylistEmitter {
    var written: Int { 0 }
    mutating func keep(_ bytes: UnsafeRawBufferPointer, firstLine: Int, lineCount: Int) throws(IOError) {}
    mutating func replace(_ old: UnsafeRawBufferPointer, with new: UnsafeRawBufferPointer, terminator: LineTerminator) throws(IOError) {}
    mutating func remove(_ old: [UInt8]) throws(IOError) {}
    mutating func insert(_ content: [UInt8], terminator: LineTerminator, afterUnterminated: Bool) throws(IOError) {}
}

/// Writes a unified diff (three lines of context) of what the second pass changes, with secrets redacted.
struct DiffEmitter: PlaylistEmitter, ~Copyable {
    static let context = 3

    var sink: OutputSink
    let path: String
    let redaction: Redaction
    private var oldLine = 0
    private var newLine = 0
    /// The last kept lines, for the context before the next change.
    private var recent: [(old: Int, new: Int, text: [UInt8])] = []
    private var hunk: [UInt8] = []
    private var hunkOld = (start: 0, count: 0)
    private var hunkNew = (start: 0, count: 0)
    /// Kept lines since the hunk's last change, still in the hunk.
    private var trailing: [(old: Int, new: Int, text: [UInt8])] = []
    private var inHunk = false
    private var wroteHeader = false

    init(sink: consuming OutputSink, path: String, redaction: Redaction) {
        self.sink = sink
        self.path = path
        self.redaction = redaction
    }

    mutating func keep(_ bytes: UnsafeRawBufferPointer, firstLine: Int, lineCount: Int) throws(IOError) {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            // The line as it ends, CR included: a diff of a CRLF playlist, or of one without a final
            // newline, is one `patch` applies.
            try keepLine(Array(bytes[start..<end]) + (end < bytes.count ? Self.newline : Self.noNewline))
            start = end + 1
        }
    }

    private static let newline: [UInt8] = [0x0A]
    /// What a unified diff says after a line the file does not end with a newline.
    private static let noNewline = Array("\n\\ No newline at end of file\n".utf8)

    /// The end of a diff line for a playlist line that ends with `terminator`.
    private static func ending(_ terminator: LineTerminator) -> [UInt8] {
        switch terminator {
        case .crlf: [0x0D, 0x0A]
        case .lf: newline
        case .none: noNewline
        }
    }

    var written: Int { 0 }

    mutating func replace(_ old: UnsafeRawBufferPointer, with new: UnsafeRawBufferPointer, terminator: LineTerminator) throws(IOError) {
        oldLine += 1
        newLine += 1
        openHunk()
        hunk += [UInt8(ascii: "-")] + old + Self.ending(terminator)
        hunk += [UInt8(ascii: "+")] + new + Self.ending(terminator)
        hunkOld.count += 1
        hunkNew.count += 1
    }

    mutating func remove(_ old: [UInt8]) throws(IOError) {
        oldLine += 1
        openHunk()
        hunk += [UInt8(ascii: "-")] + old + Self.newline
        hunkOld.count += 1
    }

    mutating func insert(_ content: [UInt8], terminator: LineTerminator, afterUnterminated: Bool) throws(IOError) {
        newLine += 1
        openHunk()
        hunk += [UInt8(ascii: "+")] + content + Self.ending(terminator == .none ? .lf : terminator)
        hunkNew.count += 1
    }

    /// Closes the last hunk; call once at the end.
    mutating func finish() throws(IOError) {
        try closeHunk(keepingTrailing: trailing.count)
        try sink.flush()
    }

    private mutating func keepLine(_ text: [UInt8]) throws(IOError) {
        oldLine += 1
        newLine += 1
        let entry = (old: oldLine, new: newLine, text: text)
        if inHunk {
            trailing.append(entry)
            if trailing.count > 2 * Self.context {
                // Far enough from the last change: end the hunk with its context, and let the lines
                // after that serve as context before the next change.
                let carried = Array(trailing.suffix(trailing.count - Self.context))
                try closeHunk(keepingTrailing: Self.context)
                recent = Array(carried.suffix(Self.context))
            }
        } else {
            recent.append(entry)
            if recent.count > Self.context { recent.removeFirst() }
        }
    }

    private mutating func openHunk() {
        if inHunk {
            for entry in trailing { appendContext(entry) }
            trailing = []
            return
        }
        inHunk = true
        hunk = []
        hunkOld = (start: (recent.first?.old ?? oldLine), count: 0)
        hunkNew = (start: (recent.first?.new ?? newLine), count: 0)
        for entry in recent { appendContext(entry) }
        recent = []
    }

    private mutating func appendContext(_ entry: (old: Int, new: Int, text: [UInt8])) {
        hunk += [UInt8(ascii: " ")] + entry.text
        hunkOld.count += 1
        hunkNew.count += 1
    }

    private mutating func closeHunk(keepingTrailing count: Int) throws(IOError) {
        guard inHunk else { return }
        for entry in trailing.prefix(count) { appendContext(entry) }
        trailing = []
        inHunk = false
        if !wroteHeader {
            try sink.write("--- a/\(path)\n+++ b/\(path)\n")
            wroteHeader = true
        }
        // A hunk that only inserts starts after the line it follows (unified diff counts that way).
        let oldStart = hunkOld.count == 0 ? hunkOld.start - 1 : hunkOld.start
        try sink.write("@@ -\(oldStart),\(hunkOld.count) +\(hunkNew.start),\(hunkNew.count) @@\n")
        try sink.write(redaction.redact(hunk))
        hunk = []
    }
}
