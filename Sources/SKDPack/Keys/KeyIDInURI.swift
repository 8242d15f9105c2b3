import HLS
import MP4

/// The key id a key line names, where it names one: its `KEYID` attribute, or a FairPlay URI that carries
/// the key id as a UUID or as 32 hex digits (`skd://<kid>`, `skd://<kid>:<iv>`, `skd://host/?kid=<kid>`).
/// A URI naming a content id instead names no key id: nothing to compare then.
public enum KeyIDInURI {
    /// The first UUID in `uri`, else the first run of exactly 32 hex digits.
    public static func find(_ uri: String) -> KeyID? {
        let bytes = Array(uri.utf8)
        var runStart = 0
        var index = 0
        var candidates: [KeyID] = []
        func isHex(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
        // A UUID: 8-4-4-4-12 hex digits not touching more hex digits.
        while index + 36 <= bytes.count {
            if index == 0 || !isHex(bytes[index - 1]), index + 36 == bytes.count || !isHex(bytes[index + 36]),
                let kid = KeyID(String(decoding: bytes[index..<(index + 36)], as: UTF8.self))
            {
                return kid
            }
            index += 1
        }
        index = 0
        while index <= bytes.count {
            if index == bytes.count || !isHex(bytes[index]) {
                if index - runStart == 32, let kid = KeyID(String(decoding: bytes[runStart..<index], as: UTF8.self)) {
                    candidates.append(kid)
                }
                runStart = index + 1
            }
            index += 1
        }
        return candidates.first
    }

    /// The key id `attributes` (an `EXT-X-KEY`) names: KEYID, else a key id in a FairPlay URI.
    static func named(by attributes: AttributeList, variables: VariableScope) -> KeyID? {
        if let keyID = attributes["KEYID"], let hex = KeyLine.normalizedKeyID(keyID.textBytes) { return KeyID(hex) }
        guard let line = KeyLine(attributes: attributes, variables: variables), line.isFairPlay, let uri = line.resolvedURI else {
            return nil
        }
        return find(uri)
    }
}
