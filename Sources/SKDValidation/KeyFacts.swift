import HLS
import SKDKeys

/// What the package rules need to know of one playlist's keys, gathered while it is validated: the
/// protection systems it carries, the FairPlay keys its segments use, and (in a master) its FairPlay
/// session keys.
public struct KeyFacts: Hashable, Sendable {
    /// The KEYFORMAT of every key that encrypts something (METHOD other than NONE).
    public var protectionSystems: Set<String> = []
    /// The distinct FairPlay `EXT-X-KEY`s, as the attributes a session key copies.
    public private(set) var fairPlayKeys: [KeyAttributes] = []
    /// The same, as a set: a key-rotated playlist has one per period, and a search of the list at every key
    /// made its validation quadratic in its periods.
    private var knownFairPlayKeys: Set<KeyAttributes> = []
    /// ``protectionSystems`` in the order met.
    private var formats: [String] = []
    /// The FairPlay `EXT-X-SESSION-KEY`s, with their lines.
    public var fairPlaySessionKeys: [(value: KeyAttributes, line: Int)] = []
    /// The line of the first `EXT-X-SESSION-KEY` of any system (a master that announces keys at all).
    public var firstSessionKeyLine: Int?

    public init() {}

    mutating func note(_ key: KeyTag?, line: Int) {
        guard let key, !key.method.isEmpty, !key.isClear else { return }
        if !key.isSessionKey {
            // (A few systems, met at every period: a set's insert hashes the format each time.)
            if !formats.contains(key.keyFormat) {
                formats.append(key.keyFormat)
                protectionSystems.insert(key.keyFormat)
            }
        } else if firstSessionKeyLine == nil {
            firstSessionKeyLine = line
        }
        guard FairPlay.isFairPlayKey(key), let uri = key.uri else { return }
        let value = KeyAttributes(
            method: key.method, uri: uri, keyFormat: key.keyFormat,
            keyFormatVersions: key.keyFormatVersions ?? FairPlay.keyFormatVersions, iv: key.iv.map { "0x" + $0.lowercased() })
        if key.isSessionKey {
            fairPlaySessionKeys.append((value, line))
        } else if knownFairPlayKeys.insert(value).inserted {
            fairPlayKeys.append(value)
        }
    }

    public static func == (lhs: KeyFacts, rhs: KeyFacts) -> Bool {
        lhs.protectionSystems == rhs.protectionSystems && lhs.fairPlayKeys == rhs.fairPlayKeys
            && lhs.fairPlaySessionKeys.map(\.value) == rhs.fairPlaySessionKeys.map(\.value)
            && lhs.fairPlaySessionKeys.map(\.line) == rhs.fairPlaySessionKeys.map(\.line)
            && lhs.firstSessionKeyLine == rhs.firstSessionKeyLine
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(protectionSystems)
        hasher.combine(fairPlayKeys)
    }
}
