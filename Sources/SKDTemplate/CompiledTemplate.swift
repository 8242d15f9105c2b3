import Glibc
import SKDBytes

/// A template made ready for many renders: the values known in advance rendered once into its literal
/// text, the others left as numbered slots that each render fills from bytes.
///
/// A run compiles its template once (the values given for the whole run folded in), a playlist folds in
/// what it knows (its catalogue row, its path's groups), and what is left (a `--match` group, `key_index`,
/// a key period's KEYID) is rendered at each key from the bytes it comes in, without a `String` or a
/// dictionary. Every value passes the checks of ``TemplateRenderer`` (characters, its variable's pattern,
/// a second scheme after `skd://`), made on its bytes, and when one fails the renderer's own check says
/// why, so a compiled template renders exactly what the renderer does and refuses what it refuses, with
/// the same message (a test renders both ways).
public struct CompiledTemplate: Sendable {
    /// How a variable of the template gets its value.
    public enum Binding: Sendable {
        /// From each render: slot `slot` of its ``Values``.
        case slot(Int)
        /// Known now (`nil`: no value, so the template's default, or nothing for an optional variable).
        case fixed(TemplateValue?)
    }

    /// A step of a render: plain data, so that the render loop copies no reference at each piece.
    private enum Piece: Sendable {
        /// Bytes of ``text``: literal text, and values rendered at compile time.
        case text(Range<Int>)
        /// A value each render gives: ``slots``' element `index`.
        case slot(index: Int)
        /// A value known at compile time that the renderer refused: every render fails with ``refusals``'
        /// element `index`.
        case refused(index: Int)
    }

    /// What a slot without a value renders.
    private enum Absent: Sendable {
        /// The default, rendered.
        case text(Range<Int>)
        case missing(RenderError)
    }

    /// A placeholder each render fills, and what its value needs. (A class: a render hands it on with one
    /// reference counted, not a copy of each of its fields.)
    private final class Slot: Sendable {
        let slot: Int
        let placeholder: Template.Placeholder
        let pattern: ValuePattern?
        let absent: Absent
        /// Whether its value is percent-encoded as its bytes are, when ASCII: no filter but `url`.
        let encodesBytes: Bool
        let mode: URIEscaping.Mode

        init(slot: Int, placeholder: Template.Placeholder, pattern: ValuePattern?, absent: Absent) {
            (self.slot, self.placeholder, self.pattern, self.absent) = (slot, placeholder, pattern, absent)
            encodesBytes = placeholder.filters.allSatisfy { $0 == .url }
            mode = placeholder.filters.contains(.url) ? .queryValue : .pathOrQuery
        }
    }

    /// What the template compiled to, made once and held by one object that every copy shares: a copy of a
    /// compiled template (a playlist's, at each key) counts one reference.
    private final class Shared: Sendable {
        let parts: Parts
        /// Whether a render must look for a second scheme after `skd://`: not when the text before the first
        /// slot (the values folded in) is long enough to tell, and holds none.
        let checksScheme: Bool

        init(_ parts: Parts) {
            self.parts = parts
            let template = parts.renderer.template
            guard template.startsWithKeyScheme, template.variableAfterScheme != nil else {
                checksScheme = false
                return
            }
            // `skd://` and the longest scheme it looks for (`https%3a`) are all it reads of a URI.
            let decisive = "skd://https%3a".utf8.count
            if case .text(let range)? = parts.pieces.first, range.count >= decisive {
                checksScheme =
                    parts.text.withUnsafeBufferPointer { LicenseURL.nestedScheme(in: UnsafeBufferPointer(rebasing: $0[range])) } != nil
            } else {
                checksScheme = true
            }
        }
    }

    private let shared: Shared
    public var renderer: TemplateRenderer { shared.parts.renderer }

    /// Compiles `renderer`'s template, each variable bound as `binding` says.
    public init(_ renderer: TemplateRenderer, binding: (String) -> Binding) {
        var parts = Parts(renderer: renderer)
        parts.compile(binding)
        shared = Shared(parts)
    }

    private init(_ parts: Parts) { shared = Shared(parts) }

    /// The literal text with the known values in it, the pieces a render goes through, the slots it fills.
    private struct Parts: Sendable {
        let renderer: TemplateRenderer
        var text: [UInt8] = []
        var pieces: [Piece] = []
        var slots: [Slot] = []
        var refusals: [RenderError] = []
        /// The values folded in, by name: the message of a second scheme after `skd://` names its source.
        var fixedValues: [String: TemplateValue] = [:]

        init(renderer: TemplateRenderer) { self.renderer = renderer }

        mutating func compile(_ binding: (String) -> Binding) {
            for segment in renderer.template.segments {
                switch segment {
                case .literal(let literal):
                    append(text: Array(literal.utf8))
                case .placeholder(let placeholder):
                    switch binding(placeholder.name) {
                    case .slot(let slot):
                        let absent: Absent
                        do {
                            var bytes: [UInt8] = []
                            try renderer.render(placeholder, { _ in nil }, appendingTo: &bytes)
                            absent = .text(text.count..<(text.count + bytes.count))
                            text += bytes
                        } catch {
                            absent = .missing(error)
                        }
                        append(
                            Slot(slot: slot, placeholder: placeholder, pattern: renderer.specs[placeholder.name]?.pattern, absent: absent))
                    case .fixed(let value):
                        fold(placeholder, value: value)
                    }
                }
            }
        }

        /// A placeholder whose value is known: its rendering into the text, or the refusal every render says.
        mutating func fold(_ placeholder: Template.Placeholder, value: TemplateValue?) {
            if let value { fixedValues[placeholder.name] = value }
            do {
                var bytes: [UInt8] = []
                try renderer.render(placeholder, { _ in value }, appendingTo: &bytes)
                append(text: bytes)
            } catch {
                refuse(error)
            }
        }

        mutating func refuse(_ error: RenderError) {
            pieces.append(.refused(index: refusals.count))
            refusals.append(error)
        }

        mutating func append(_ slot: Slot) {
            pieces.append(.slot(index: slots.count))
            slots.append(slot)
        }

        mutating func append(text bytes: [UInt8]) {
            if case .text(let range)? = pieces.last, range.upperBound == text.count {
                pieces[pieces.count - 1] = .text(range.lowerBound..<(range.upperBound + bytes.count))
            } else {
                pieces.append(.text(text.count..<(text.count + bytes.count)))
            }
            text += bytes
        }
    }

    /// This template with some of its slots now known: `binding` is asked of each slot (with its
    /// variable's name), and a `.fixed` answer renders it into the text.
    public func binding(_ binding: (Int, String) -> Binding) -> CompiledTemplate {
        let (text, pieces, slots, refusals) = (shared.parts.text, shared.parts.pieces, shared.parts.slots, shared.parts.refusals)
        var folded = Parts(renderer: shared.parts.renderer)
        folded.fixedValues = shared.parts.fixedValues
        for piece in pieces {
            switch piece {
            case .text(let range):
                folded.append(text: Array(text[range]))
            case .refused(let index):
                folded.refuse(refusals[index])
            case .slot(let index):
                let slot = slots[index]
                switch binding(slot.slot, slot.placeholder.name) {
                case .fixed(let value):
                    folded.fold(slot.placeholder, value: value)
                case .slot(let renumbered):
                    var moved = slot.absent
                    if case .text(let range) = slot.absent {
                        moved = .text(folded.text.count..<(folded.text.count + range.count))
                        folded.text += text[range]
                    }
                    folded.append(Slot(slot: renumbered, placeholder: slot.placeholder, pattern: slot.pattern, absent: moved))
                }
            }
        }
        return CompiledTemplate(folded)
    }

    /// Whether `uri` starts with the text every render starts with (the literal text and values folded in
    /// before the first slot) and that text fixes more than the scheme (`skd://new-lic.example.com/fps?cid=`,
    /// not `skd://`): a URI that does cannot be told from one this template rendered by its start; one that
    /// does not was not rendered by it, told by one comparison before anything costlier is asked.
    public func startsAsRendered(_ uri: UnsafeBufferPointer<UInt8>) -> Bool {
        guard case .text(let range)? = shared.parts.pieces.first, range.count > "skd://".utf8.count, uri.count >= range.count,
            let base = uri.baseAddress
        else { return false }
        return shared.parts.text.withUnsafeBufferPointer { memcmp($0.baseAddress! + range.lowerBound, base, range.count) == 0 }
    }

    /// The values of one render: each slot's bytes, one after another in a buffer kept from render to render.
    public struct Values {
        package private(set) var bytes = ByteBuffer()
        private var ranges: [Range<Int>?] = []
        /// The last value of each slot that passed its checks: a key-rotated playlist renders the same
        /// content id at every period, and its pattern is not matched again.
        fileprivate var accepted: [[UInt8]?] = []
        /// The byte matcher's working memory for the patterns' checks, kept from render to render.
        fileprivate var scratch = ByteRegex.Scratch()

        public init() {}

        /// Forgets the values of the last render, keeping the storage.
        public mutating func removeAll() {
            bytes.removeAll()
            for index in ranges.indices { ranges[index] = nil }
        }

        /// Gives slot `slot` the value `value`.
        public mutating func set(_ slot: Int, _ value: UnsafeBufferPointer<UInt8>) {
            while ranges.count <= slot { ranges.append(nil) }
            ranges[slot] = bytes.count..<(bytes.count + value.count)
            bytes.append(value)
        }

        /// Gives slot `slot` the decimal digits of `number` (a key period's index), without a `String`.
        public mutating func set(_ slot: Int, decimal number: Int) {
            // The digits from the last, into a stack buffer, then appended at once.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
                var rest = number.magnitude
                var start = digits.count
                repeat {
                    start -= 1
                    digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                } while rest > 0 && start > 0
                if number < 0 {
                    start -= 1
                    digits[start] = UInt8(ascii: "-")
                }
                set(slot, UnsafeBufferPointer(rebasing: digits[start...]))
            }
        }

        public mutating func set(_ slot: Int, _ value: String) {
            var value = value
            value.withUTF8 { set(slot, $0) }
        }

        /// The value of slot `slot`, if it has one.
        public func range(_ slot: Int) -> Range<Int>? { slot < ranges.count ? ranges[slot] : nil }

        public func string(_ slot: Int) -> String? {
            range(slot).map { String(decoding: UnsafeBufferPointer(rebasing: bytes.utf8[$0]), as: UTF8.self) }
        }

        /// Whether the value at `range` is the last one slot `slot` accepted.
        fileprivate func isAccepted(_ slot: Int, _ range: Range<Int>) -> Bool {
            guard slot < accepted.count, let last = accepted[slot], last.count == range.count else { return false }
            guard !range.isEmpty else { return true }
            return last.withUnsafeBufferPointer { last in
                memcmp(last.baseAddress!, bytes.bytes.baseAddress! + range.lowerBound, range.count) == 0
            }
        }

        fileprivate mutating func accept(_ slot: Int, _ range: Range<Int>) {
            while accepted.count <= slot { accepted.append(nil) }
            if accepted[slot] == nil { accepted[slot] = [] }
            accepted[slot]!.removeAll(keepingCapacity: true)
            accepted[slot]!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes.utf8[range]))
        }
    }

    /// Renders into `uri` (emptied first) with `values`; `source` names where a slot's value came from, for
    /// the message of a value refused.
    public func render(_ values: inout Values, into uri: inout [UInt8], source: (Int) -> String) throws(RenderError) {
        var buffer = ByteBuffer()
        defer { uri = buffer.array }
        try render(&values, into: &buffer, source: source)
    }

    /// The same into a buffer kept from render to render (a key's URI, at every key period).
    package func render(_ values: inout Values, into uri: inout ByteBuffer, source: (Int) -> String) throws(RenderError) {
        let (text, pieces, slots, renderer) = (shared.parts.text, shared.parts.pieces, shared.parts.slots, shared.parts.renderer)
        uri.removeAll()
        for piece in pieces {
            switch piece {
            case .text(let range):
                text.withUnsafeBufferPointer { uri.append(UnsafeBufferPointer(rebasing: $0[range])) }
            case .refused(let index):
                throw shared.parts.refusals[index]
            case .slot(let index):
                try render(slots[index], values: &values, into: &uri, source: source)
            }
        }
        // What only the whole URI can tell, as the renderer tells it after every value: that a template
        // starting with a value makes an `skd:` URI, and that no value after `skd://` brings a scheme.
        if renderer.template.startsWithKeyScheme {
            guard shared.checksScheme, LicenseURL.nestedScheme(in: uri.utf8) != nil else { return }
        }
        try renderer.checkWhole(uri.text) { name in
            for slot in slots where slot.placeholder.name == name {
                return values.string(slot.slot).map { TemplateValue($0, source: source(slot.slot)) }
            }
            return shared.parts.fixedValues[name]
        }
    }

    /// One slot's value (or, without one, its default): checked on its bytes, and by the renderer's own
    /// checks (which say why) when these find anything to doubt; filtered and percent-encoded.
    private func render(
        _ slot: Slot, values: inout Values, into uri: inout ByteBuffer, source: (Int) -> String
    ) throws(RenderError) {
        guard let range = values.range(slot.slot) else {
            switch slot.absent {
            case .text(let range):
                shared.parts.text.withUnsafeBufferPointer { uri.append(UnsafeBufferPointer(rebasing: $0[range])) }
            case .missing(let error): throw error
            }
            return
        }
        // A pattern's answer is kept for the value it was asked about (a bare value's check is a scan).
        let checked = slot.pattern != nil && values.isAccepted(slot.slot, range)
        var scratch = ByteRegex.Scratch()
        swap(&scratch, &values.scratch)
        defer { swap(&scratch, &values.scratch) }
        // Read in place: rendering the value changes `uri` and `scratch`, not the values.
        let value = UnsafeBufferPointer(rebasing: values.bytes.utf8[range])
        try render(slot, value, checked: checked, into: &uri, scratch: &scratch, source: source)
        if slot.pattern != nil, !checked { values.accept(slot.slot, range) }
    }

    /// The value `value` of `slot`, checked (unless it was before) and filtered into `uri`.
    private func render(
        _ slot: Slot, _ value: UnsafeBufferPointer<UInt8>, checked: Bool, into uri: inout ByteBuffer, scratch: inout ByteRegex.Scratch,
        source: (Int) -> String
    ) throws(RenderError) {
        // A value whose every byte the URI keeps as it is (a content id, a key id): one scan, as none of
        // those bytes is one to doubt (a control character, a quote, a byte beyond ASCII) or to encode.
        let plain = slot.encodesBytes && URIEscaping.keepsAsIs(value, slot.mode)
        let suspicious = !plain && !checked && value.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == 0xC2 }
        if suspicious || (!checked && slot.pattern?.matches(value, scratch: &scratch) == false) {
            // The renderer's checks of the value, which throw with its message.
            let doubted = TemplateValue(String(decoding: value, as: UTF8.self), source: source(slot.slot))
            var scratch: [UInt8] = []
            try shared.parts.renderer.render(slot.placeholder, { _ in doubted }, appendingTo: &scratch)
        }
        // Bytes are encoded as they are only when they are ASCII; any other text goes through a `String`, as
        // the renderer's values do (invalid UTF-8 becomes U+FFFD there, so it does here).
        if plain {
            uri.append(value)
            return
        }
        var encoded: [UInt8] = []
        defer { uri.append(contentsOf: encoded) }
        if slot.encodesBytes, Bytes.isASCII(value) {
            URIEscaping.encode(bytes: value, slot.mode, appendingTo: &encoded)
            return
        }
        var filtered = String(decoding: value, as: UTF8.self)
        for filter in slot.placeholder.filters { filtered = filter.apply(to: filtered) }
        URIEscaping.encode(filtered, slot.mode, appendingTo: &encoded)
    }
}
