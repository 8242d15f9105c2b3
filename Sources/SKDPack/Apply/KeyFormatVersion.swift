import HLS
import SKDReportModel
import SKDTemplate

/// The `EXT-X-VERSION` a playlist needs once it has a KEYFORMAT attribute (RFC 8216 section 7: version 5),
/// which `apply` raises or adds.
enum KeyFormatVersion {
    static let number: UInt64 = 5
    /// `#EXT-X-VERSION:5`.
    static let line = TagLineWriter.line(tag: TagName.version.rawValue, decimalInteger: number)
    static let text = String(decoding: line, as: UTF8.self)
    /// The digit that turns a one-digit version line into this one, in place.
    static let digit = Array(String(number).utf8)

    /// What a playlist that now writes a KEYFORMAT does to its EXT-X-VERSION.
    enum Change {
        case none
        /// Raise the EXT-X-VERSION line's value to 5.
        case raise
        /// Add `#EXT-X-VERSION:5` after `#EXTM3U`.
        case insert
    }

    /// The change the EXT-X-VERSION line `current` (as read, at `line`; `nil` when the playlist has none)
    /// needs, counted (and kept, if `keeping`) in `outcome`: the one decision of both appliers.
    static func change(of current: (line: Int, text: String)?, in outcome: inout PlaylistOutcome, keeping: Bool) -> Change {
        guard let current else {
            outcome.record(
                ApplyChange(line: 1, tag: "EXT-X-VERSION", action: .inserted, before: nil, after: Redaction.none.redacted(text)),
                keeping: keeping)
            return .insert
        }
        guard let value = UInt64(current.text.dropFirst("#EXT-X-VERSION:".count)), value < number else { return .none }
        outcome.record(
            ApplyChange(
                line: current.line, tag: "EXT-X-VERSION", action: .rewritten, before: Redaction.none.redacted(current.text),
                after: Redaction.none.redacted(text)), keeping: keeping)
        return .raise
    }
}
