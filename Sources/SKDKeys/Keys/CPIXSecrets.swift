import CPIX
import MP4
import SKDBytes
import SKDTemplate

extension CPIXDocument {
    /// What a document holds that is secret, besides its key values (which skdpack does not read): each
    /// key's explicit IV, the IVs of its FairPlay signaling, and the tokens its key URIs carry (a form
    /// skdpack knows, a bearer token). Read from the signaling's bytes, not parsed as key lines: a document
    /// with a key per period has thousands, and apply parses each only when its period comes.
    public var secrets: [Secret] {
        var secrets = keys.compactMap { key in key.explicitIV.map { Secret(KeyID.hex($0)) } }
        let uriSecrets = OldURISecrets(current: nil)
        for system in drmSystems where system.systemID == ProtectionSystem.fairPlay {
            for signaling in system.hlsSignaling {
                secrets += Self.secrets(inSignaling: Array(signaling.text.utf8), uriSecrets)
            }
            if let uri = system.uriExtXKey { secrets += uriSecrets.secrets(in: uri) }
        }
        return secrets
    }

    /// The IVs (`IV=0x…`) and the URIs' secrets (`URI="…"`) of a signaling's key lines.
    private static func secrets(inSignaling text: [UInt8], _ uriSecrets: OldURISecrets) -> [Secret] {
        var secrets: [Secret] = []
        text.withUnsafeBytes { text in
            for (mark, value) in [("IV=0", Value.iv), ("URI=\"", Value.uri)] {
                var from = 0
                var mark = mark
                while let found = mark.withUTF8({
                    Bytes.offset(of: UnsafeRawBufferPointer($0), in: UnsafeRawBufferPointer(rebasing: text[from...]))
                }) {
                    var start = from + found + mark.utf8.count
                    var end = start
                    switch value {
                    case .iv:
                        guard start < text.count, text[start] | 0x20 == UInt8(ascii: "x") else {
                            from = start
                            continue
                        }
                        start += 1
                        end = start
                        while end < text.count, Bytes.hexValue(text[end]) != nil { end += 1 }
                        if end > start { secrets.append(Secret(String(decoding: text[start..<end], as: UTF8.self))) }
                    case .uri:
                        while end < text.count, text[end] != UInt8(ascii: "\"") { end += 1 }
                        secrets += uriSecrets.secrets(in: UnsafeRawBufferPointer(rebasing: text[start..<end]))
                    }
                    from = end
                }
            }
        }
        return secrets
    }

    private enum Value { case iv, uri }
}
