import HLS
import MP4

/// The key id a key line names, where it names one: its `KEYID` attribute, or a FairPlay URI that carries
/// the key id as a UUID or as 32 hex digits (`skd://<kid>`, `skd://<kid>:<iv>`, `skd://host/?kid=<kid>`).
/// A URI naming a content id instead names no key id: nothing to compare then.
public enum KeyIDInURI {
    /// The first UUID in `uri`, else the first run of exactly 32 hex digits.
    public static func find(_ uri: String) -> KeyID? {
        var uri = uri
        return uri.withUTF8 { find(UnsafeRawBufferPointer($0)) }
    }

    /// The same over a URI's bytes: the runs of hex digits found in one pass (a UUID is five runs of 8, 4, 4, 4
    /// and 12 joined by single dashes, a bare key id one run of 32), nothing built until one fits.
    static func find(_ bytes: UnsafeRawBufferPointer) -> KeyID? {
        var runs: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            guard isHex(bytes[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, isHex(bytes[index]) { index += 1 }
            runs.append(start..<index)
        }
        let uuid = [8, 4, 4, 4, 12]
        var bare: KeyID?
        for position in runs.indices {
            if position + 4 < runs.count,
                (0..<5).allSatisfy({ runs[position + $0].count == uuid[$0] }),
                (0..<4).allSatisfy({
                    runs[position + $0].upperBound + 1 == runs[position + $0 + 1].lowerBound
                        && bytes[runs[position + $0].upperBound] == UInt8(ascii: "-")
                })
            {
                return KeyID(String(decoding: bytes[runs[position].lowerBound..<runs[position + 4].upperBound], as: UTF8.self))
            }
            if bare == nil, runs[position].count == 32 { bare = KeyID(String(decoding: bytes[runs[position]], as: UTF8.self)) }
        }
        return bare
    }

    /// The key id `attributes` (an `EXT-X-KEY`) names: KEYID, else a key id in a FairPlay URI.
    package static func named(by attributes: AttributeList, variables: VariableScope) -> KeyID? {
        if let keyID = attributes["KEYID"], let hex = KeyLine.normalizedKeyID(keyID.textBytes) { return KeyID(hex) }
        guard let line = KeyLine(attributes: attributes, variables: variables), line.isFairPlay, let uri = line.resolvedURI else {
            return nil
        }
        return find(uri)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}
