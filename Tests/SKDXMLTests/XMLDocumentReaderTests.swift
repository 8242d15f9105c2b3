import CLibXML2
import Foundation
import SKDReportCheck
import SKDTestSupport
import Testing

@testable import SKDXML

/// The tree libxml2's pull reader makes of `bytes`, built as skdpack built it before it read XML with
/// Expat: the oracle the Expat reader is held to. `nil` when libxml2 finds the document not well-formed.
private func libxml2Tree(_ bytes: [UInt8]) -> XMLElement? {
    // Set up once for the process: a schema check on another thread set it up at the same time, and a
    // document of the first round was refused (one run in the full suite).
    LibXML2.initialize()
    let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
    let made = bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { xmlReaderForMemory($0.baseAddress, Int32($0.count), nil, nil, options) }
    }
    guard let reader = made else { return nil }
    defer { xmlFreeTextReader(reader) }
    // A prefix no declaration binds breaks the Namespaces in XML recommendation, which libxml2 only warns
    // of and Expat refuses: the oracle counts it as a refusal.
    let namespaceErrors = NamespaceErrors()
    xmlTextReaderSetStructuredErrorHandler(
        reader,
        { context, error in
            guard let context, let error, error.pointee.domain == Int32(XML_FROM_NAMESPACE.rawValue) else { return }
            Unmanaged<NamespaceErrors>.fromOpaque(context).takeUnretainedValue().count += 1
        }, Unmanaged.passUnretained(namespaceErrors).toOpaque())
    func string(_ text: UnsafePointer<xmlChar>?) -> String { text.map { String(cString: $0) } ?? "" }
    var root: XMLElement?
    var open: [XMLElement] = []
    while true {
        let status = xmlTextReaderRead(reader)
        if status == 0 { break }
        guard status > 0, namespaceErrors.count == 0 else { return nil }
        switch xmlTextReaderNodeType(reader) {
        case 1:
            let element = XMLElement(
                name: string(xmlTextReaderConstLocalName(reader)), namespace: string(xmlTextReaderConstNamespaceUri(reader)),
                line: Int(xmlGetLineNo(xmlTextReaderCurrentNode(reader))))
            let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
            while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                guard string(xmlTextReaderConstNamespaceUri(reader)) != "http://www.w3.org/2000/xmlns/" else { continue }
                element.attributes[string(xmlTextReaderConstLocalName(reader))] = string(xmlTextReaderConstValue(reader))
            }
            _ = xmlTextReaderMoveToElement(reader)
            if let parent = open.last { parent.elements.append(element) } else if root == nil { root = element }
            if !isEmpty { open.append(element) }
        case 3, 4, 13, 14:
            open.last?.text += string(xmlTextReaderConstValue(reader))
        case 15:
            _ = open.popLast()
        default:
            continue
        }
    }
    return withExtendedLifetime(namespaceErrors) { namespaceErrors.count == 0 ? root : nil }
}

private final class NamespaceErrors {
    var count = 0
}

/// A document's text, UTF-16 by its byte order mark or else UTF-8, for its lines and for showing it.
private func text(_ bytes: [UInt8]) -> String {
    guard bytes.count >= 2, bytes[0] == 0xFF && bytes[1] == 0xFE || bytes[0] == 0xFE && bytes[1] == 0xFF else {
        return String(decoding: bytes, as: UTF8.self)
    }
    let little = bytes[0] == 0xFF
    let units = stride(from: 2, to: bytes.count - 1, by: 2).map { index in
        little ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8 : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }
    return String(decoding: units, as: UTF16.self)
}

/// The first difference between two trees, as a path and what differs; `nil` when they are the same.
private func difference(_ ours: XMLElement, _ theirs: XMLElement, lines: [Substring], at path: String = "") -> String? {
    let here = "\(path)/\(ours.name)"
    if ours.name != theirs.name || ours.namespace != theirs.namespace {
        return "\(here): {\(ours.namespace)}\(ours.name) against {\(theirs.namespace)}\(theirs.name)"
    }
    // libxml2 gives the line a start tag ends on; Expat, rightly, the line it starts on (its `<`).
    if ours.line > theirs.line || ours.line < 1 || !lines[ours.line - 1].contains(ours.name) {
        return "\(here): line \(ours.line), where libxml2 says the tag ends on \(theirs.line)"
    }
    if ours.attributes != theirs.attributes { return "\(here): attributes \(ours.attributes) against \(theirs.attributes)" }
    if ours.text != theirs.text { return "\(here): text \(ours.text.debugDescription) against \(theirs.text.debugDescription)" }
    if ours.elements.count != theirs.elements.count { return "\(here): \(ours.elements.count) children against \(theirs.elements.count)" }
    for (index, (mine, other)) in zip(ours.elements, theirs.elements).enumerated() {
        if let found = difference(mine, other, lines: lines, at: "\(here)[\(index)]") { return found }
    }
    return nil
}

/// Documents as producers write them and as they go wrong: namespaces declared anywhere and spelt with any
/// prefix, attributes with entity and character references, text with CDATA, comments and processing
/// instructions, non-ASCII text, CRLF lines, UTF-8 or UTF-16; and, for some, one damage (a cut, a byte
/// dropped or doubled, a stray `<` or `&`, a tag closed wrong).
private struct DocumentGenerator {
    var random: SplitMix
    let namespaces = ["urn:dashif:org:cpix", "urn:ietf:params:xml:ns:keyprov:pskc", "http://www.w3.org/2000/09/xmldsig#", "urn:x"]
    let names = ["CPIX", "ContentKey", "DRMSystem", "URIExtXKey", "HLSSignalingData", "Data", "a", "b-c", "d.e", "_f", "é"]
    let texts = [
        "plain", "a &amp; b", "&lt;tag&gt;", "&#x41;&#66;", "caf&#233;", "中文", "🎬", " spaced  out ", "line\nbreak", "crlf\r\nend",
        "<![CDATA[raw <b> & ]]]]>", "<!-- a comment -->", "<?pi data?>", "tab\there", "\"quotes\" 'too'", "]]",
    ]
    let values = ["1", "a &amp; b", "&quot;q&quot;", "&#x9;tab", "line\nbreak", "caf\u{E9}", "&lt;&gt;", "", "  x  ", "'single'"]

    mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    /// An element and its content, `depth` levels deep at most, with `prefixes` bound in scope.
    mutating func element(depth: Int, prefixes: [String]) -> String {
        var scope = prefixes
        var declarations = ""
        if chance(30) {
            let prefix = pick(["cpix", "pskc", "ds", "x"])
            declarations += " xmlns:\(prefix)=\"\(pick(namespaces))\""
            scope.append(prefix)
        }
        if chance(20) { declarations += " xmlns=\"\(pick(namespaces))\"" }
        let prefix = scope.isEmpty || chance(40) ? "" : pick(scope) + ":"
        let name = prefix + pick(names)
        var attributes = ""
        var used: Set<String> = []
        for _ in 0..<Int(random.next() % 4) {
            let attribute = (scope.isEmpty || chance(70) ? "" : pick(scope) + ":") + pick(["id", "kid", "name", "value", "x"])
            guard used.insert(attribute.split(separator: ":").last.map(String.init)!).inserted else { continue }
            let quote = chance(50) ? "\"" : "'"
            let value = pick(values).replacingOccurrences(of: quote, with: quote == "\"" ? "&quot;" : "&apos;")
            attributes += "\(chance(20) ? "\n  " : " ")\(attribute)=\(quote)\(value)\(quote)"
        }
        let start = "<\(name)\(declarations)\(attributes)"
        if depth == 0 || chance(15) { return start + (chance(50) ? "/>" : "></\(name)>") }
        var content = ""
        for _ in 0..<Int(random.next() % 4) {
            content += chance(50) ? element(depth: depth - 1, prefixes: scope) : pick(texts)
            if chance(40) { content += pick(["\n", "\n  ", "\r\n", " "]) }
        }
        return start + ">" + content + "</\(name)>"
    }

    mutating func document() -> [UInt8] {
        var text = chance(60) ? "<?xml version=\"1.0\" encoding=\"\(chance(80) ? "UTF-8" : "utf-8")\"?>\n" : ""
        if chance(30) { text += "<!-- made by a key server -->\n" }
        text += element(depth: Int(random.next() % 5), prefixes: [])
        if chance(30) { text += "\n<!-- after -->" }
        if chance(50) { text += "\n" }
        var bytes = Array(text.utf8)
        if chance(15) {
            let cut = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 5 {
            case 0: bytes.removeSubrange(cut...)
            case 1: bytes.remove(at: cut)
            case 2: bytes.insert(bytes[cut], at: cut)
            case 3: bytes.insert(UInt8(ascii: "<"), at: cut)
            default: bytes.insert(UInt8(ascii: "&"), at: cut)
            }
        }
        if chance(10) {
            // UTF-16, with its byte order mark, declared so or not.
            let declared = String(decoding: bytes, as: UTF8.self).replacingOccurrences(
                of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"", options: .caseInsensitive)
            let little = chance(50)
            bytes = little ? [0xFF, 0xFE] : [0xFE, 0xFF]
            for unit in declared.utf16 {
                bytes += little ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
            }
        }
        return bytes
    }
}

@Suite("reading XML with Expat, held to libxml2")
struct XMLDocumentReaderTests {
    @Test("every generated document: well-formed for both or for neither, and the same tree (names, namespaces, lines, attributes, text)")
    func sameAsLibXML2() throws {
        var generator = DocumentGenerator(random: SplitMix(seed: 0x584D_4C21))
        var (wellFormed, refused) = (0, 0)
        for round in 0..<3000 {
            let bytes = generator.document()
            let theirs = libxml2Tree(bytes)
            let ours = try? XMLDocumentReader.read(bytes, encoding: nil)
            let shown = text(bytes)
            switch (ours, theirs) {
            case (let ours?, let theirs?):
                wellFormed += 1
                let found = difference(ours, theirs, lines: shown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline))
                #expect(found == nil, "document \(round): \(found ?? "")\n\(shown)")
            case (nil, nil):
                refused += 1
            default:
                Issue.record(
                    "document \(round): \(ours == nil ? "refused by Expat, read by libxml2" : "read by Expat, refused by libxml2")\n\(shown)"
                )
            }
        }
        // The generator makes both kinds, in numbers.
        #expect(wellFormed > 2000 && refused > 150, "\(wellFormed) well-formed, \(refused) refused")
    }

    @Test("a refusal says where and what: line, column and the parser's reason")
    func malformed() {
        #expect {
            try XMLDocumentReader.read(Array("<a>\n  <b>\n</a>".utf8), encoding: nil)
        } throws: { error in
            let error = error as! XMLDocumentReader.Malformed
            return error.line == 3 && error.column == 3
                && error.reason == "not well-formed XML: mismatched tag: this end tag does not close <b>, opened on line 2"
        }
        #expect {
            try XMLDocumentReader.read(Array("title,content_id\nt1,42\n".utf8), encoding: nil)
        } throws: { ($0 as! XMLDocumentReader.Malformed).reason.hasSuffix("before the first element: is this an XML document?") }
        #expect {
            try XMLDocumentReader.read(Array("<x:a/>".utf8), encoding: nil)
        } throws: { ($0 as! XMLDocumentReader.Malformed).reason.contains("unbound prefix") }
    }

    @Test("a document with a DTD is refused where it starts, its entities never expanded, in UTF-8 and UTF-16")
    func doctype() {
        let laughs =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n<!ENTITY a \"aaaaaaaaaa\">\n<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n]>\n<r>&b;</r>"
        let utf16: [UInt8] = [0xFF, 0xFE] + laughs.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        for bytes in [Array(laughs.utf8), utf16] {
            #expect {
                try XMLDocumentReader.read(bytes, encoding: nil)
            } throws: { error in
                let error = error as! XMLDocumentReader.Malformed
                return error.line == 2 && error.reason.hasPrefix("the document has a DTD")
            }
        }
    }

    @Test(
        "every real CPIX document reads to libxml2's tree",
        .enabled(if: SharedMaterial.cpix != nil, Comment(rawValue: SharedMaterial.skipReason)))
    func realDocuments() throws {
        let documents = SharedMaterial.files(in: SharedMaterial.cpix, extensions: ["xml"])
        #expect(documents.count >= 20)
        for url in documents {
            let bytes = try [UInt8](Data(contentsOf: url))
            guard let theirs = libxml2Tree(bytes) else {
                #expect(throws: XMLDocumentReader.Malformed.self, "\(url.lastPathComponent)") {
                    try XMLDocumentReader.read(bytes, encoding: nil)
                }
                continue
            }
            let ours = try XMLDocumentReader.read(bytes, encoding: nil)
            let found = difference(ours, theirs, lines: text(bytes).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline))
            #expect(found == nil, "\(url.lastPathComponent): \(found ?? "")")
        }
    }
}
