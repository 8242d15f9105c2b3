import CPIX
import Glibc
import HLS
import MP4
import SKDFiles
import SKDTemplate

/// Where the keys that really encrypt the media are known: the key server's CPIX documents, and the init
/// segments' own default KIDs (`--kid-from media`). `apply` takes `{kid}` and its kin from here;
/// `validate` checks playlists against it.
public struct KeyTruth: Sendable {
    /// The CPIX documents given, each read and checked.
    public var documents: [CPIXDocument] {
        didSet { secrets = documents.flatMap(\.secrets) }
    }
    /// The documents' secrets (``CPIX/CPIXDocument/secrets``): hidden in whatever a run shows.
    public private(set) var secrets: [Secret] = []
    /// Take `{kid}` from the init segment of the key period's `EXT-X-MAP`.
    public var kidFromMedia: Bool
    /// The init segments, each read once.
    public var initSegments: InitSegmentStore

    /// The variables key truth gives: the key id in both forms, the document's content id, the explicit IV,
    /// and the URI its FairPlay signaling gives.
    public static let variableNames = ["kid", "kid_uuid", "cpix_content_id", "iv_hex", "cpix_uri"]

    public init(documents: [CPIXDocument] = [], kidFromMedia: Bool = false, initSegments: InitSegmentStore = InitSegmentStore()) {
        self.documents = documents
        self.secrets = documents.flatMap(\.secrets)
        self.kidFromMedia = kidFromMedia
        self.initSegments = initSegments
    }

    public var isEmpty: Bool { documents.isEmpty && !kidFromMedia }

    /// The CPIX documents `path` names: the file itself, or the `.xml` files directly in a directory (not
    /// hidden ones), in name order; empty for a directory without any.
    public static func documentFiles(at path: String) throws(IOError) -> [String] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw IOError(path: path, operation: "read", errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return [path] }
        guard let directory = opendir(path) else { throw IOError(path: path, operation: "read", errno: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = entry.name
            if name.hasSuffix(".xml"), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().map { entryPath($0, in: path) }
    }

    /// The document (or, from a 2.4 bulk document, the part of it) for a title whose content id is
    /// `contentID`; a message saying why there is none.
    public func document(for contentID: String?) -> Result<CPIXDocument, KeyTruthProblem> {
        if documents.count == 1, let only = documents.first {
            guard let contentID else { return .success(only) }
            if only.keys.contains(where: { $0.contentID != nil }) {
                let part = only.restricted(toContent: contentID)
                guard !part.keys.isEmpty else {
                    return .failure(KeyTruthProblem("the CPIX document \(only.path) has no key for content id \(contentID)"))
                }
                return .success(part)
            }
            if let theirs = only.contentID, theirs != contentID {
                return .failure(
                    KeyTruthProblem(
                        "the CPIX document \(only.path) is for content id \(theirs), and this title's content_id is \(contentID)"))
            }
            return .success(only)
        }
        guard let contentID else {
            return .failure(
                KeyTruthProblem(
                    "\(documents.count) CPIX documents were given and this title has no content_id to choose one by "
                        + "(give it with a value, a catalogue or a path pattern)"))
        }
        let candidates = documents.compactMap { document -> CPIXDocument? in
            if document.contentID == contentID, !document.keys.contains(where: { $0.contentID != nil }) { return document }
            let part = document.restricted(toContent: contentID)
            return part.keys.isEmpty ? nil : part
        }
        switch candidates.count {
        case 1: return .success(candidates[0])
        case 0: return .failure(KeyTruthProblem("none of the \(documents.count) CPIX documents is for content id \(contentID)"))
        default:
            return .failure(
                KeyTruthProblem(
                    "\(candidates.count) CPIX documents are for content id \(contentID): \(candidates.map(\.path).joined(separator: ", "))")
            )
        }
    }
}

/// Why key truth gives no key for a place in a playlist.
public struct KeyTruthProblem: Error, Sendable, Equatable {
    public var message: String

    /// The message quotes the document's values (labels, rule summaries): their control characters are
    /// escaped here, once for every finding made from it.
    public init(_ message: String) { self.message = PrintableText.escaping(message) }
}

extension CPIXDocument {
    /// The keys of a 2.4 bulk document whose `ContentKey@contentId` is `contentID`, with their DRM systems
    /// and rules.
    func restricted(toContent contentID: String) -> CPIXDocument {
        var part = self
        part.keys = keys.filter { $0.contentID == contentID }
        let kids = Set(part.keys.map(\.kid))
        part.drmSystems = drmSystems.filter { kids.contains($0.kid) }
        part.usageRules = usageRules.filter { kids.contains($0.kid) }
        part.contentID = contentID
        return part
    }
}
