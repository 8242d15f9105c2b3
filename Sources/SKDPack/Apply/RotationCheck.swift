import Glibc

/// The check that a template does not fold a key rotation: the URI written for a key period and what told
/// its key (the old URI, another system's KEYID, key truth's key id) are kept, and the same URI for a
/// different key in the next period is caught. A player keeps the key of a URI it has, so every period
/// after the first would be played with the first one's key. The buffers are reused from key to key.
struct RotationCheck {
    private var lastURI: [UInt8] = []
    private var lastBehind: [UInt8] = []
    private var lastLine: Int?

    /// Notes the URI `uri` written at `line` for a period whose key `behind` tells; the line of the period
    /// before when this one folds into it.
    mutating func note(uri: UnsafeRawBufferPointer, behind: UnsafeRawBufferPointer, line: Int) -> Int? {
        let folded = lastLine.flatMap { Self.same(uri, lastURI) && !Self.same(behind, lastBehind) ? $0 : nil }
        Self.keep(uri, in: &lastURI)
        Self.keep(behind, in: &lastBehind)
        lastLine = line
        return folded
    }

    /// Copies `bytes` into `buffer`, reallocating only when the length changes (the URIs of one playlist
    /// mostly have one length).
    private static func keep(_ bytes: UnsafeRawBufferPointer, in buffer: inout [UInt8]) {
        if buffer.count != bytes.count { buffer = [UInt8](repeating: 0, count: bytes.count) }
        guard let base = bytes.baseAddress else { return }
        buffer.withUnsafeMutableBytes { _ = memcpy($0.baseAddress!, base, bytes.count) }
    }

    private static func same(_ bytes: UnsafeRawBufferPointer, _ other: [UInt8]) -> Bool {
        guard bytes.count == other.count else { return false }
        guard let base = bytes.baseAddress else { return true }
        return other.withUnsafeBytes { memcmp(base, $0.baseAddress!, bytes.count) == 0 }
    }
}
