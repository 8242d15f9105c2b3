import MP4
import SKDTestSupport
import Testing

@testable import SKDKeys

/// The key id a FairPlay URI names (`KeyIDInURI.find`), read over its bytes in one pass, is the one the
/// reading it replaced found (kept here as the reference), over generated URIs: UUIDs and 32-digit runs
/// among runs of hex digits of every length, dashes, hosts and queries, in either case.
@Suite("the key id in a URI")
struct KeyIDInURITests {
    /// The reading before, which built an array at every run it looked at.
    static func reference(_ uri: String) -> KeyID? {
        let bytes = Array(uri.utf8)
        var runs: [Range<Int>] = []
        var index = 0
        let isHex = { (byte: UInt8) in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
        while index < bytes.count {
            guard isHex(bytes[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, isHex(bytes[index]) { index += 1 }
            runs.append(start..<index)
        }
        var bare: KeyID?
        for (position, run) in runs.enumerated() {
            if position + 4 < runs.count {
                let five = runs[position...(position + 4)]
                let joined = zip(five.dropLast(), five.dropFirst()).allSatisfy { left, right in
                    left.upperBound + 1 == right.lowerBound && bytes[left.upperBound] == UInt8(ascii: "-")
                }
                if joined, five.map(\.count) == [8, 4, 4, 4, 12] {
                    return KeyID(String(decoding: bytes[run.lowerBound..<runs[position + 4].upperBound], as: UTF8.self))
                }
            }
            if bare == nil, run.count == 32 { bare = KeyID(String(decoding: bytes[run], as: UTF8.self)) }
        }
        return bare
    }

    @Test("the key id found is the reference's, over generated URIs")
    func sameAsReference() {
        var random = SplitMix(seed: 0x4B1D)
        let hex = Array("0123456789abcdefABCDEF")
        func digits(_ count: Int) -> String { String((0..<count).map { _ in hex[Int(random.next() % 22)] }) }
        var found = 0
        for _ in 0..<4000 {
            var uri = ["skd://", "skd://lic.example.com/fps?kid=", "https://k/", ""][Int(random.next() % 4)]
            for _ in 0..<(1 + random.next() % 6) {
                switch random.next() % 6 {
                case 0: uri += [8, 4, 4, 4, 12].map(digits).joined(separator: "-")
                case 1: uri += digits(32)
                case 2: uri += digits(Int(random.next() % 40))
                case 3: uri += ["-", "--", ":", "/", "&x=", "?cid=", "."][Int(random.next() % 7)]
                case 4: uri += [8, 4, 4, 4, 12].map { digits($0 + Int(random.next() % 2)) }.joined(separator: "-")
                default: uri += "title-\(random.next() % 100)"
                }
            }
            let reference = Self.reference(uri)
            if reference != nil { found += 1 }
            #expect(KeyIDInURI.find(uri) == reference, "\(uri)")
        }
        #expect(found > 500)
    }
}
