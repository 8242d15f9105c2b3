/// A stable share of a library's packages: `--shard I/N` takes the packages whose key hashes to `I`
/// modulo `N`, so that N machines (an indexed job, an array job) each take one share and together take
/// every package exactly once. A package is never split: its master and media go to the same shard.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// 0-based, as a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` and AWS Batch's
    /// `AWS_BATCH_JOB_ARRAY_INDEX` are.
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Reads `I/N`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether `package` belongs to this shard. The key is the path of the package's master (or lone media
    /// playlist) relative to the input it was found under, so that shards agree whatever the mount point.
    public func contains(_ package: PlaylistPackage) -> Bool {
        guard let file = package.master ?? package.media.first else { return index == 0 }
        return Int(Self.hash(file.relativePath) % UInt64(count)) == index
    }

    /// FNV-1a, 64-bit, then mixed as splitmix64 finishes: stable across runs, machines and Swift versions
    /// (`Hasher` is seeded per process). FNV-1a alone keeps the parity of its input's bytes in its low bit,
    /// so `--shard I/2` split titles that differ in one letter by that letter's parity (the example library
    /// went whole to one shard of two).
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
    }
}
