import Foundation
import HLS
import SKDPack
import SKDTestSupport
import SKDValidation
import Testing

/// The promise "a mistake is reported once", as a property: into playlists that validate without an
/// error (the shipped examples, and the real corpus where it is), put one mistake of the kinds people make
/// (spaces before a tag or around the header, a tag continued with `\`, a tab or a control character in
/// an attribute list, a space after a comma, spaces after a URI, an MP4 file saved as the playlist): `validate` then finds
/// exactly one error more than before, on the line of the mistake, and no other finding changes.
@Suite("a mistake is reported once (generated)")
struct OneFindingPerMistakeTests {
    static let casesPerPlaylist = 12

    /// The playlists mistakes are put into: every one with no error of its own.
    static let bases: [(name: String, text: String)] = {
        let examples = PackageLocation.root.appendingPathComponent("examples/library")
        var urls = (FileManager.default.enumerator(atPath: examples.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".m3u8") }.sorted().map { examples.appendingPathComponent($0) }
        urls += Corpus.entries.filter { !$0.isNegative }.map(\.url)
        return urls.compactMap { url in
            guard let data = try? Data(contentsOf: url), data.count < 2 << 20 else { return nil }
            let text = String(decoding: data, as: UTF8.self)
            guard text.utf8.elementsEqual(data), (try? errors(in: text)) == 0 else { return nil }
            return (url.lastPathComponent, text)
        }
    }()

    enum Mistake: CaseIterable {
        case spacesBeforeTag, spacedHeader, continuedTag, tabInAttributes, controlInAttributes, spacesAfterURI, mp4AsPlaylist
        case spaceBesideComma
    }

    @Test("one mistake put into a valid playlist is one error more, on its line, and nothing else changes")
    func oneMistakeOneFinding() throws {
        #expect(Self.bases.count >= 5, "the examples hold valid playlists")
        var random = SplitMix(seed: 24)
        var tried = 0
        for base in Self.bases {
            let before = try Self.findings(in: base.text)
            for _ in 0..<Self.casesPerPlaylist {
                let mistake = Mistake.allCases[Int(random.next() % UInt64(Mistake.allCases.count))]
                guard let (text, line) = Self.put(mistake, into: base.text, random: &random) else { continue }
                tried += 1
                let after = try Self.findings(in: text)
                let errors = after.filter { $0.severity == .error }
                let note = "\(mistake) at line \(line) of \(base.name): \(after.map { "\($0.location.line) \($0.id)" })"
                #expect(errors.count == before.count { $0.severity == .error } + 1, "\(note)")
                // A continued tag's error is on it, or (a tag skdpack does not know) on the rest taken for a URI.
                let lines = mistake == .continuedTag ? line...(line + 1) : line...line
                #expect(errors.allSatisfy { lines.contains($0.location.line) } || mistake == .mp4AsPlaylist, "\(note)")
                if mistake == .mp4AsPlaylist {
                    #expect(after.map(\.id) == [ParseDiagnostics.notAPlaylist.id], "\(note)")
                } else {
                    // The other findings are the playlist's own (a continued tag moves the lines after it up one,
                    // and its findings to its rest).
                    let shift = mistake == .continuedTag ? 1 : 0
                    let others = after.filter { $0.severity != .error }.map {
                        "\($0.location.line > line ? $0.location.line - shift : $0.location.line) \($0.id)"
                    }
                    #expect(
                        others.sorted() == before.filter { $0.severity != .error }.map { "\($0.location.line) \($0.id)" }.sorted(),
                        "\(note)")
                }
            }
        }
        #expect(tried >= 50)
    }

    /// `text` with `mistake` put at a line chosen by `random`, and that line's number; nil if the playlist
    /// has no line the mistake fits.
    static func put(_ mistake: Mistake, into text: String, random: inout SplitMix) -> (String, Int)? {
        let newline = text.contains("\r\n") ? "\r\n" : "\n"
        var lines = text.components(separatedBy: newline)
        func pick(_ fits: (String) -> Bool) -> Int? {
            let candidates = lines.indices.filter { $0 > 0 && fits(lines[$0]) }
            return candidates.isEmpty ? nil : candidates[Int(random.next() % UInt64(candidates.count))]
        }
        let attributeList = { (line: String) in
            line.hasPrefix("#EXT-X-") && line.contains("=") && line.contains(",") && !line.hasPrefix("#EXT-X-STREAM-INF")
        }
        switch mistake {
        case .spacesBeforeTag:
            guard let index = pick({ $0.hasPrefix("#EXT") }) else { return nil }
            lines[index] = "  " + lines[index]
            return (lines.joined(separator: newline), index + 1)
        case .spacedHeader:
            lines[0] = " " + lines[0] + " "
            return (lines.joined(separator: newline), 1)
        case .continuedTag:
            guard let index = pick(attributeList), let comma = lines[index].lastIndex(of: ",") else { return nil }
            let line = lines[index]
            lines[index] = String(line[...comma]) + "\\"
            lines.insert(String(line[line.index(after: comma)...]), at: index + 1)
            return (lines.joined(separator: newline), index + 1)
        case .tabInAttributes, .controlInAttributes:
            guard let index = pick(attributeList), let comma = lines[index].firstIndex(of: ",") else { return nil }
            lines[index].insert(mistake == .tabInAttributes ? "\t" : "\u{01}", at: lines[index].index(after: comma))
            return (lines.joined(separator: newline), index + 1)
        case .spaceBesideComma:
            // After a comma outside quotes: the list is read as meant, and what it says is still judged.
            // (A tag skdpack knows: another's attribute list is not read.)
            let known = { (line: String) in TagName(rawValue: String(line.dropFirst().prefix { $0 != ":" })) != nil }
            guard let index = pick({ attributeList($0) && known($0) }) else { return nil }
            var inQuotes = false
            guard
                let comma = lines[index].indices.first(where: { at in
                    if lines[index][at] == "\"" { inQuotes.toggle() }
                    return !inQuotes && lines[index][at] == ","
                })
            else { return nil }
            lines[index].insert(" ", at: lines[index].index(after: comma))
            return (lines.joined(separator: newline), index + 1)
        case .spacesAfterURI:
            guard let index = pick({ !$0.isEmpty && !$0.hasPrefix("#") }) else { return nil }
            lines[index] += "  "
            return (lines.joined(separator: newline), index + 1)
        case .mp4AsPlaylist:
            let video = InitSegmentMaker.Track.video(width: 1280, height: 720)
            let bytes = InitSegmentMaker.segment(video, scheme: "cbcs", kid: Array(repeating: 7, count: 16))
            return (String(decoding: bytes, as: UTF8.self), 1)
        }
    }

    @Test(
        "a space beside a comma or an = hides no other finding of its line (FPS-method); a space inside a value does"
    )
    func spaceHidesNothing() throws {
        let key = { (attributes: String) in
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:\(attributes)\n#EXTINF:6.0,\na.ts\n#EXT-X-ENDLIST\n"
        }
        let fairPlay = #"URI="skd://x-1",KEYFORMAT="com.apple.streamingkeydelivery""#
        for spaced in ["METHOD=AES-128, \(fairPlay)", "METHOD= AES-128,\(fairPlay)", "METHOD=AES-128 ,\(fairPlay)"] {
            let ids = Set(try Self.findings(in: key(spaced)).map(\.id.rawValue))
            #expect(ids == ["HLS-attribute-whitespace", "FPS-method"], "\(spaced): \(ids)")
        }
        // A space that cuts a value: what the rules would make of "SAMPLE" is the same mistake again.
        let cut = Set(try Self.findings(in: key("METHOD=SAMPLE -AES,\(fairPlay)")).map(\.id.rawValue))
        #expect(cut == ["HLS-attribute-whitespace"], "\(cut)")
    }

    static func findings(in text: String) throws -> [Diagnostic] {
        try PlaylistValidator.validate(MemorySource(Array(text.utf8)), path: "p.m3u8").diagnostics
    }

    static func errors(in text: String) throws -> Int { try findings(in: text).count { $0.severity == .error } }
}
