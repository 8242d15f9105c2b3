import SKDBytes
import Synchronization

/// A value for a template variable, with where it came from (named in every message about it).
public struct TemplateValue: Hashable, Sendable {
    public var value: String
    /// Where the value came from, as a user would say it: `--var`, `catalog titles.csv row 12`,
    /// `--match on line 8`, `built-in`.
    public var source: String

    public init(_ value: String, source: String) {
        self.value = value
        self.source = source
    }

    /// The first character of `text` that no value may hold, whatever its variable: `"` and the control
    /// characters (C0 with CR and LF, DEL, C1). Percent-encoding would keep them out of the playlist's
    /// structure, but such a value is a mistake upstream (a CSV cell quoted twice, a line break pasted
    /// into a content id) that a key URI should not silently carry.
    public static func forbiddenScalar(in text: String) -> Unicode.Scalar? {
        // Decided on bytes for the common case; a C1 control (U+0080–U+009F) is 0xC2 then a byte below 0xA0.
        // Over the contiguous bytes when the string has them (native and literal strings do): the generic
        // walk of the UTF-8 view cost several times as much, at every key a migration renders.
        let isSuspicious = { (byte: UInt8) in byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == 0xC2 }
        let suspicious =
            text.utf8.withContiguousStorageIfAvailable { $0.contains(where: isSuspicious) } ?? text.utf8.contains(where: isSuspicious)
        guard suspicious else { return nil }
        return text.unicodeScalars.first { $0 == "\"" || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}

/// The rules a template file sets for one variable.
public struct VariableSpec: Sendable {
    /// The value must match this whole, before any filter.
    public var pattern: ValuePattern?
    /// When `false`, a missing value renders as nothing instead of being an error.
    public var required: Bool
    public var defaultValue: String?
    /// The value is shown as `REDACTED` in every message, report and diff (an ExpressPlay token, say).
    public var secret: Bool
    public var description: String?

    public init(
        pattern: String? = nil, required: Bool = true, defaultValue: String? = nil, secret: Bool = false,
        description: String? = nil
    ) throws {
        self.pattern = try pattern.map(ValuePattern.init)
        self.required = required
        self.defaultValue = defaultValue
        self.secret = secret
        self.description = description
    }
}

/// A regular expression a value must match as a whole, compiled once, kept with its text for messages.
///
/// Matched by ``ByteRegex`` (the pattern anchored at both ends) where it can run it, as a key-rotated
/// playlist checks a value per key period (a `{kid}` each time another): Swift's `Regex` costs tens of
/// thousands of instructions a match. Swift's decides where the byte matcher cannot (other syntax, text
/// that is not ASCII, a match that takes too many steps); a test holds the two in agreement.
public final class ValuePattern: Sendable {
    public let text: String
    private let bytes: ByteRegex?
    /// Swift's `Regex`, compiled when first needed: at once where the byte matcher cannot run the pattern
    /// (so that a pattern Swift's rejects is an error when the template is read), else only for a value the
    /// byte matcher cannot decide; compiling it costs a template's start-up more than its file. (A compiled
    /// `Regex` is never mutated; the lock is for the first use, which concurrent jobs may race to.)
    private let swift: Mutex<SwiftRegex?>

    public init(_ text: String) throws {
        self.text = text
        // Anchored only once the pattern reads as a whole on its own: `a)|(b` would otherwise become another
        // pattern, which Swift's Regex (compiled at once when the byte matcher refuses) rejects.
        self.bytes = ByteRegex.reads(text) ? ByteRegex.compile("^(?:" + text + ")$") : nil
        self.swift = Mutex(bytes == nil ? SwiftRegex(try Regex(text).matchingSemantics(.unicodeScalar)) : nil)
    }

    public func matches(_ value: String) -> Bool {
        var value = value
        return value.withUTF8(matches)
    }

    /// Whether the UTF-8 text `value` matches the pattern as a whole.
    public func matches(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        var scratch = ByteRegex.Scratch()
        return matches(value, scratch: &scratch)
    }

    /// The same with the caller's working memory for the byte matcher, for a caller that checks a value
    /// at every key.
    package func matches(_ value: UnsafeBufferPointer<UInt8>, scratch: inout ByteRegex.Scratch) -> Bool {
        if let bytes, Bytes.isASCII(value) {
            switch bytes.firstMatch(in: value, scratch: &scratch) {
            case .found: return true
            case .noMatch: return false
            case .gaveUp: break
            }
        }
        return swiftMatches(String(decoding: value, as: UTF8.self))
    }

    /// Swift's answer alone: the reference the byte matcher is tested against.
    func swiftMatches(_ value: String) -> Bool {
        let regex = swift.withLock { regex in
            if regex == nil { regex = (try? Regex(text).matchingSemantics(.unicodeScalar)).map(SwiftRegex.init) }
            return regex
        }
        return regex.map { (try? $0.regex.wholeMatch(in: value)) != nil } ?? false
    }

}

/// A compiled Swift `Regex`, shared between threads. (A class: a pattern holding one by reference needs
/// no `Regex` type metadata until one is compiled, which most runs never do; holding it by value cost every
/// `apply` with a `--match` or a template variable's pattern the instantiation of `Regex<AnyRegexOutput>`.)
package final class SwiftRegex: @unchecked Sendable {
    // @unchecked: `Regex` is not declared Sendable, but a compiled regex is never mutated after init, and
    // matching does not mutate it.
    package let regex: Regex<AnyRegexOutput>

    package init(_ regex: Regex<AnyRegexOutput>) { self.regex = regex }
}

/// Why a URI could not be rendered. The message names the variable and where its value came from, and
/// never shows a secret value.
public struct RenderError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Problem: Hashable, Sendable {
        /// No source gave the variable a value (the caller can say which sources there are).
        case missingValue
        /// A value holds a quote or a control character.
        case forbiddenCharacter
        /// A value breaks its variable's pattern.
        case patternMismatch
        /// What the template made is not an `skd:` URI.
        case notKeyURI
    }

    public var variable: String?
    public var message: String
    public var problem: Problem

    public init(variable: String?, message: String, problem: Problem) {
        self.variable = variable
        self.message = message
        self.problem = problem
    }

    public var description: String { message }
}
