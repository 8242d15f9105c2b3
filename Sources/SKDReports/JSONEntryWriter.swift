import HLS
import SKDBytes
import SKDReportModel

/// Writes a report's playlist entries as JSON bytes directly, exactly as `JSONEncoder` does with
/// `.prettyPrinted, .sortedKeys, .withoutEscapingSlashes` (the tests hold the two byte-equal), without
/// going through `Codable`: a library's report is thousands of entries and megabytes of text, and the
/// encoder's generic path made it the largest part of a library run after the file system.
struct JSONEntryWriter {
    private(set) var bytes: [UInt8] = []

    /// `playlist` as an object whose braces stand at `depth` (two spaces a level); the caller has put the
    /// opening brace's indentation.
    mutating func playlist(_ playlist: Report.Playlist, depth: Int) {
        bytes += "{\n".utf8
        array("changes", playlist.changes, depth: depth + 1) { writer, change, depth in writer.change(change, depth: depth) }
        bytes += ",\n".utf8
        if let declared = playlist.declared {
            key("declared", depth: depth + 1)
            self.declared(declared, depth: depth + 1)
            bytes += ",\n".utf8
        }
        array("diagnostics", playlist.diagnostics, depth: depth + 1) { writer, finding, depth in
            writer.finding(finding, depth: depth)
        }
        bytes += ",\n".utf8
        if let periods = playlist.keyPeriods {
            array("keyPeriods", periods, depth: depth + 1) { writer, period, depth in writer.keyPeriod(period, depth: depth) }
            bytes += ",\n".utf8
        }
        if let uris = playlist.keyURIs {
            array("keyURIs", uris, depth: depth + 1) { writer, uri, depth in
                writer.bytes += "{\n".utf8
                if let digest = uri.digest { writer.member("digest", string: digest, depth: depth + 1, last: false) }
                if uri.holdsSecret == true { writer.member("holdsSecret", bool: true, depth: depth + 1, last: false) }
                if let keyID = uri.keyID { writer.member("keyID", string: keyID, depth: depth + 1, last: false) }
                writer.member("line", number: uri.line, depth: depth + 1, last: true)
                writer.indent(depth)
                writer.bytes.append(UInt8(ascii: "}"))
            }
            bytes += ",\n".utf8
        }
        member("kind", string: playlist.kind.rawValue, depth: depth + 1, last: false)
        if let measured = playlist.measured {
            key("measured", depth: depth + 1)
            self.measured(measured, depth: depth + 1)
            bytes += ",\n".utf8
        }
        member("package", string: playlist.package, depth: depth + 1, last: false)
        member("path", string: playlist.path, depth: depth + 1, last: false)
        member("status", string: playlist.status.rawValue, depth: depth + 1, last: true)
        indent(depth)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func change(_ change: ApplyChange, depth: Int) {
        bytes += "{\n".utf8
        member("action", string: change.action.rawValue, depth: depth + 1, last: false)
        if let after = change.after { member("after", string: after.text, depth: depth + 1, last: false) }
        if let before = change.before { member("before", string: before.text, depth: depth + 1, last: false) }
        if let kid = change.kid { member("kid", string: kid, depth: depth + 1, last: false) }
        if let file = change.kidFile { member("kidFile", string: file, depth: depth + 1, last: false) }
        if let source = change.kidSource { member("kidSource", string: source.rawValue, depth: depth + 1, last: false) }
        member("line", number: change.line, depth: depth + 1, last: false)
        member("tag", string: change.tag, depth: depth + 1, last: true)
        indent(depth)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func declared(_ declared: Report.Declared, depth: Int) {
        bytes += "{\n".utf8
        array("renditions", declared.renditions, depth: depth + 1) { writer, rendition, depth in
            writer.bytes += "{\n".utf8
            if let channels = rendition.channels { writer.member("channels", number: channels, depth: depth + 1, last: false) }
            writer.member("group", string: rendition.group, depth: depth + 1, last: false)
            writer.member("line", number: rendition.line, depth: depth + 1, last: false)
            if let name = rendition.name { writer.member("name", string: name.text, depth: depth + 1, last: false) }
            writer.member("type", string: rendition.type, depth: depth + 1, last: rendition.uri == nil)
            if let uri = rendition.uri { writer.member("uri", string: uri.text, depth: depth + 1, last: true) }
            writer.indent(depth)
            writer.bytes.append(UInt8(ascii: "}"))
        }
        bytes += ",\n".utf8
        array("variants", declared.variants, depth: depth + 1) { writer, variant, depth in
            writer.bytes += "{\n".utf8
            if let audio = variant.audio { writer.member("audio", string: audio, depth: depth + 1, last: false) }
            if let rate = variant.averageBandwidth { writer.member("averageBandwidth", number: rate, depth: depth + 1, last: false) }
            if let rate = variant.bandwidth { writer.member("bandwidth", number: rate, depth: depth + 1, last: false) }
            if let codecs = variant.codecs { writer.member("codecs", string: codecs, depth: depth + 1, last: false) }
            if let rate = variant.frameRate { writer.member("frameRate", string: rate, depth: depth + 1, last: false) }
            writer.member("line", number: variant.line, depth: depth + 1, last: false)
            if let resolution = variant.resolution { writer.member("resolution", string: resolution, depth: depth + 1, last: false) }
            writer.member("uri", string: variant.uri.text, depth: depth + 1, last: true)
            writer.indent(depth)
            writer.bytes.append(UInt8(ascii: "}"))
        }
        bytes += "\n".utf8
        indent(depth)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func keyPeriod(_ period: Report.KeyPeriod, depth: Int) {
        bytes += "{\n".utf8
        member("durationMilliseconds", number: period.durationMilliseconds, depth: depth + 1, last: false)
        member("firstSegment", number: period.firstSegment, depth: depth + 1, last: false)
        array("keys", period.keys, depth: depth + 1) { writer, key, depth in
            writer.bytes += "{\n".utf8
            writer.member("format", string: key.format, depth: depth + 1, last: false)
            if let keyID = key.keyID { writer.member("keyID", string: keyID, depth: depth + 1, last: false) }
            writer.member("method", string: key.method, depth: depth + 1, last: key.uri == nil)
            if let uri = key.uri { writer.member("uri", string: uri.text, depth: depth + 1, last: true) }
            writer.indent(depth)
            writer.bytes.append(UInt8(ascii: "}"))
        }
        bytes += ",\n".utf8
        member("line", number: period.line, depth: depth + 1, last: false)
        member("startMilliseconds", number: period.startMilliseconds, depth: depth + 1, last: true)
        indent(depth)
        bytes.append(UInt8(ascii: "}"))
    }

    /// The members in key order, as the encoder sorts them; an optional without a value is left out.
    private mutating func measured(_ measured: Report.Measured, depth: Int) {
        bytes += "{\n".utf8
        if let rate = measured.averageBitRate { member("averageBitRate", number: rate, depth: depth + 1, last: false) }
        member("bytesRead", number: measured.bytesRead, depth: depth + 1, last: false)
        if let channels = measured.channels { member("channels", number: channels, depth: depth + 1, last: false) }
        array("codecs", measured.codecs, depth: depth + 1) { writer, codec, _ in writer.string(codec) }
        bytes += ",\n".utf8
        member("durationMilliseconds", number: measured.durationMilliseconds, depth: depth + 1, last: false)
        if let rate = measured.peakBitRate { member("peakBitRate", number: rate, depth: depth + 1, last: false) }
        if let resolution = measured.resolution { member("resolution", string: resolution, depth: depth + 1, last: false) }
        array("segments", measured.segments, depth: depth + 1) { writer, segment, depth in
            writer.bytes += "{\n".utf8
            writer.member("bitRate", number: segment.bitRate, depth: depth + 1, last: false)
            writer.member("bytes", number: segment.bytes, depth: depth + 1, last: false)
            writer.member("durationMilliseconds", number: segment.durationMilliseconds, depth: depth + 1, last: false)
            if let extinf = segment.extinfMilliseconds {
                writer.member("extinfMilliseconds", number: extinf, depth: depth + 1, last: false)
            }
            writer.member("line", number: segment.line, depth: depth + 1, last: false)
            writer.member("uri", string: segment.uri.text, depth: depth + 1, last: true)
            writer.indent(depth)
            writer.bytes.append(UInt8(ascii: "}"))
        }
        bytes += ",\n".utf8
        member("segmentsNotMeasured", number: measured.segmentsNotMeasured, depth: depth + 1, last: false)
        member("segmentsRead", number: measured.segmentsRead, depth: depth + 1, last: true)
        indent(depth)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func finding(_ finding: Report.Finding, depth: Int) {
        bytes += "{\n".utf8
        member("column", number: finding.column, depth: depth + 1, last: false)
        member("line", number: finding.line, depth: depth + 1, last: false)
        member("message", string: finding.message.text, depth: depth + 1, last: false)
        member("rule", string: finding.rule, depth: depth + 1, last: false)
        member("severity", string: finding.severity.rawValue, depth: depth + 1, last: true)
        indent(depth)
        bytes.append(UInt8(ascii: "}"))
    }

    /// `"name" : [ … ]` with each element on its own lines; an empty array keeps a blank line inside, as
    /// the encoder writes it. No separator after it.
    private mutating func array<Element>(
        _ name: String, _ elements: [Element], depth: Int, _ write: (inout JSONEntryWriter, Element, Int) -> Void
    ) {
        key(name, depth: depth)
        bytes += "[\n".utf8
        if elements.isEmpty { bytes.append(0x0A) }
        for (index, element) in elements.enumerated() {
            indent(depth + 1)
            write(&self, element, depth + 1)
            bytes += (index + 1 < elements.count ? ",\n" : "\n").utf8
        }
        indent(depth)
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func member(_ name: String, string value: String, depth: Int, last: Bool) {
        key(name, depth: depth)
        string(value)
        bytes += (last ? "\n" : ",\n").utf8
    }

    private mutating func member(_ name: String, bool value: Bool, depth: Int, last: Bool) {
        key(name, depth: depth)
        bytes += (value ? "true" : "false").utf8
        bytes += (last ? "\n" : ",\n").utf8
    }

    private mutating func member(_ name: String, number value: Int, depth: Int, last: Bool) {
        key(name, depth: depth)
        bytes += String(value).utf8
        bytes += (last ? "\n" : ",\n").utf8
    }

    private mutating func key(_ name: String, depth: Int) {
        indent(depth)
        string(name)
        bytes += " : ".utf8
    }

    private mutating func indent(_ depth: Int) {
        bytes.append(contentsOf: repeatElement(0x20, count: depth * 2))
    }

    /// A JSON string as the encoder writes it: `"` and `\` escaped, the short escapes `\b \t \n \f \r`,
    /// other C0 controls as `\u00xx`, everything else (`/`, DEL, C1, U+2028) as its UTF-8 bytes. The bytes
    /// between two escapes go in as one span: a report is mostly such spans.
    private mutating func string(_ text: String) {
        var text = text
        bytes.append(UInt8(ascii: "\""))
        text.withUTF8 { utf8 in
            bytes.reserveCapacity(bytes.count + utf8.count + 16)
            var spanStart = 0
            var index = Self.nextEscape(in: utf8, from: 0)
            while index < utf8.count {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[spanStart..<index]))
                escape(utf8[index])
                spanStart = index + 1
                index = Self.nextEscape(in: utf8, from: spanStart)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[spanStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The index of the first byte from `start` on that JSON must escape (a control byte, `"` or `\`), or
    /// `utf8.count`. Eight bytes at a time: report strings are key lines, a few hundred bytes each, and a
    /// library's report holds tens of thousands of them.
    private static func nextEscape(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        if let base = UnsafeRawPointer(utf8.baseAddress) {
            while index + 8 <= utf8.count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // The lowest flagged byte of each mask is exact (borrows only run upwards), so the lowest of
                // the three is the first byte to escape.
                let control = (word &- ones &* 0x20) & ~word & highs
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let found =
                    control | ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs)
                if found != 0 { return index + found.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { return index }
            index += 1
        }
        return utf8.count
    }

    /// The escape of `byte`, appended a byte at a time: an array literal per escape allocated, and key
    /// lines, whose before and after a report holds, have eight quotes each.
    private mutating func escape(_ byte: UInt8) {
        bytes.append(0x5C)
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            bytes += [UInt8(ascii: "u"), 0x30, 0x30]
            Hex.append(byte, to: &bytes)
        }
    }
}
