import Glibc
import HLS
import SKDFiles

/// The rewritten playlists of one title (a package: a master and its media playlists), each in its
/// temporary file beside its target, renamed into place only when every playlist of the title is ready.
///
/// A title is the unit users think in: players of one title must never meet two license servers because
/// one of its playlists could not be rewritten. So nothing is renamed until every playlist has been
/// written, and then every target is checked (still the version that was read, still writable) before
/// the first rename. What is left is the window of the renames themselves: a kill between two of them
/// leaves some playlists rewritten, and the next run finishes the title (applying is idempotent).
final class TitleWrite {
    private struct Staged {
        let output: AtomicFile
        let file: PlaylistFile
        /// In place: the target as it was read, to be sure it has not changed since.
        let version: FileVersion?
        /// The outcome this file belongs to, in the runner's list.
        let outcome: Int
    }

    private let inPlace: Bool
    private var staged: [Staged] = []
    /// A dry run's diff of the title (``ApplyDestination/diff``), held in a temporary file with no name
    /// until the title is known whole: a title that fails shows no hunk of a playlist that would then not
    /// change.
    let diff: UnnamedFile?

    init(inPlace: Bool, diff: UnnamedFile? = nil) {
        self.inPlace = inPlace
        self.diff = diff
    }

    var isEmpty: Bool { staged.isEmpty }

    /// Keeps `output` (written, flushed) until the title is committed or discarded.
    func stage(_ output: AtomicFile, for file: PlaylistFile, read version: FileVersion?, outcome: Int) {
        staged.append(Staged(output: output, file: file, version: version, outcome: outcome))
    }

    /// Removes every temporary file: the title stays as it was.
    func discard() {
        for entry in staged { entry.output.discard() }
        staged.removeAll()
    }

    /// Why a title could not be committed: the playlist at fault (its outcome's index), and the outcomes
    /// whose files were renamed before (none when a check failed).
    struct Failure {
        var outcome: Int
        var error: IOError
        var renamed: Set<Int>
    }

    /// Checks every target, then renames every file into place. On a failed check nothing is renamed; on a
    /// failed rename the files renamed before it stay, as after a kill.
    func commit() -> Failure? {
        defer { staged.removeAll() }
        var originals: [stat?] = []
        for entry in staged {
            do {
                originals.append(inPlace ? try Self.check(entry) : nil)
            } catch {
                for entry in staged { entry.output.discard() }
                return Failure(outcome: entry.outcome, error: error, renamed: [])
            }
        }
        var renamed: Set<Int> = []
        for (index, entry) in staged.enumerated() {
            do {
                try entry.output.commit(replacing: originals[index])
                renamed.insert(entry.outcome)
            } catch {
                for later in staged[(index + 1)...] { later.output.discard() }
                return Failure(outcome: entry.outcome, error: error, renamed: renamed)
            }
        }
        return nil
    }

    /// The target's permissions, once sure that it may be replaced.
    private static func check(_ entry: Staged) throws(IOError) -> stat {
        var original = stat()
        guard stat(entry.output.target, &original) == 0 else {
            throw IOError(path: entry.file.path, operation: "read the permissions of", errno: errno)
        }
        // Replacing a file needs only a writable directory, so a read-only playlist would be replaced (as
        // sed -i does); someone made it read-only to keep it as it is. The mode bits decide, not access(2),
        // which says yes to root.
        guard original.st_mode & 0o222 != 0 else {
            let mode = String(original.st_mode & 0o7777, radix: 8)
            throw IOError(
                path: entry.file.path, operation: "rewrite", errno: EACCES,
                reason: "it is read-only (mode 0\(mode)); make it writable to let skdpack change it, it is left as it was")
        }
        // Checked just before the renames: a change after this instant is not seen (rename(2) cannot compare
        // and swap), but the window is the renames', not the whole rewrite's.
        guard let version = entry.version, FileVersion(original) == version else {
            throw IOError(
                path: entry.file.path, operation: "rewrite", errno: EAGAIN,
                reason: "it changed while skdpack was reading it; it is left as the other writer made it, run again to apply")
        }
        return original
    }
}
