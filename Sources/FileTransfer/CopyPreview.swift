#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `statetui copy --dry-run` says a copy would do, decided by reading only: nothing is created,
/// written or locked (no directory, no journal, no partial).
///
/// Each file is decided as the copy decides a file already under its final name: nothing there is
/// copied; the source's size and modification time (or, with `comparesContent` or when only the times
/// differ, its content) is skipped; a directory there or the source itself is a failure; anything else
/// is replaced with `overwrite`, else refused.
///
/// A journal left by an interrupted run (killed mid-copy) is read, never locked or written, and decides as
/// the real run would: a file whose partial holds the journal's durable checkpoint of the same unchanged
/// source is resumed from there; a partial the run cannot trust (its source changed, it is shorter than
/// the checkpoint, its record is damaged or missing) is replaced by a copy from the start. A journal that
/// another run holds locked says the real run would wait for it.
public struct CopyPreview: Hashable, Sendable {
    /// One entry's fate.
    public enum Action: Hashable, Sendable {
        case copy
        case skip(reason: String)
        case replace
        case refuse(reason: String)
        case link
        /// Make a FIFO, socket or device, described without an article (``FileStatus/nodeDescription``).
        case make(String)
        case createDirectory
        /// Continue the partial an interrupted run left, from `offset` of the source's `size` bytes.
        case resume(offset: Int64, size: Int64)
        /// Copy from the start, replacing the partial an interrupted run left, for `reason`.
        case restart(reason: String)
        /// The directory's journal is locked by another run (`holder`, its pid when known): the copy waits.
        case wait(holder: Int32)
    }

    /// One line of the preview: an entry by its path below the destination, and its fate.
    public struct Entry: Hashable, Sendable, CustomStringConvertible {
        /// The path relative to the destination directory, e.g. `photos/2024/a.jpg`.
        public var path: String
        /// What the copy would do with it.
        public var action: Action

        /// `would copy photos/a.jpg`, `would skip a.iso (same size and time)`, ….
        public var description: String {
            let path = DisplayText.escaped(self.path)
            return switch action {
            case .copy: "would copy \(path)"
            case .skip(let reason): "would skip \(path) (\(reason))"
            case .replace: "would replace \(path)"
            case .refuse(let reason): "would fail \(path): \(reason)"
            case .link: "would link \(path)"
            case .make(let node): "would make \(path) (\(node))"
            case .createDirectory: "would create directory \(path)"
            case .resume(let offset, let size):
                "would resume \(path) at byte \(offset) of \(size) (the partial an interrupted run left)"
            case .restart(let reason):
                "would copy \(path) from the start, replacing the partial an interrupted run left (\(reason))"
            case .wait(let holder):
                "would wait for \(path): another statetui copy (pid \(holder)) writes into that directory"
            }
        }
    }

    /// Every entry, in the order the copy meets them.
    public let entries: [Entry]

    /// True when the real copy would fail some entry.
    public var hasFailures: Bool {
        entries.contains { if case .refuse = $0.action { true } else { false } }
    }

    /// Decides every entry of `sources` copied into `destinationDirectory`; throws when a source tree's root
    /// cannot be read (an entry below it that cannot be read would fail alone).
    public init(
        sources: [String], destinationDirectory: String, overwrite: Bool, comparesContent: Bool,
        excluding: [String] = [], fileSystem: FileSystem = .posix
    ) throws(SourceTreeError) {
        var preview = Decisions(
            destination: destinationDirectory, overwrite: overwrite, comparesContent: comparesContent,
            fileSystem: fileSystem)
        // What the destination is on disk, which a tree's walk does not read as part of the tree.
        let destination = (try? fileSystem.statusOfPath(destinationDirectory)).map {
            SourceTree.Destination(path: destinationDirectory, identity: $0.identity)
        }
        for source in sources {
            let status = try? fileSystem.statusAt(AT_FDCWD, source)
            guard status?.kind == .directory else {
                preview.decideNamed(source, status: status)
                continue
            }
            let tree = try SourceTree.walk(
                source, excluding: excluding, destination: destination, sharing: &preview.firstNames,
                fileSystem: fileSystem)
            preview.decide(tree)
        }
        self.entries = preview.entries
    }

    /// The decisions of one preview, entry after entry, and what the later ones depend on: the journals read so
    /// far, the first name of every file with several, and those first names whose copy would be refused.
    private struct Decisions {
        let destination: String
        let overwrite: Bool
        let comparesContent: Bool
        let fileSystem: FileSystem
        var entries: [Entry] = []
        var journals: InterruptedJournals
        /// Files with other names, told apart across every source: a later name becomes a hard link, unless its
        /// first name would not be copied.
        var firstNames = FirstNames()
        var refusedFirsts: Set<String> = []

        init(destination: String, overwrite: Bool, comparesContent: Bool, fileSystem: FileSystem) {
            self.destination = destination
            self.overwrite = overwrite
            self.comparesContent = comparesContent
            self.fileSystem = fileSystem
            journals = InterruptedJournals(destination: destination, fileSystem: fileSystem)
        }

        /// Decides a source named on the command line that is not a directory, of `status` (nil when it cannot
        /// be read).
        mutating func decideNamed(_ source: String, status: FileStatus?) {
            let name = CopyRequest.name(of: source)
            let action: Action
            if let status, let first = firstNames.meet(status, at: name) {
                // A further name of a file (or link, FIFO, socket, device) met before becomes a hard link to its
                // copy.
                action = link(to: first, at: name)
            } else if let status, status.kind.isCopiedAsIs {
                // A symbolic link named on the command line is copied as a link, not followed; a FIFO, socket or
                // device is made anew, never opened.
                action = CopyPreview.asIs(
                    source, at: destination + "/" + name, overwrite: overwrite, fileSystem: fileSystem)
                noteFirst(action, at: name, hasOtherNames: status.linkCount > 1)
            } else {
                let entry = file(source, at: [name])
                noteFirst(entry.action, at: name, hasOtherNames: (status?.linkCount ?? 1) > 1)
                entries.append(entry)
                return
            }
            entries.append(Entry(path: name, action: action))
        }

        /// Decides every entry of a source directory's `tree`. A directory under a name the copy keeps for
        /// itself, or whose place a file or a symbolic link takes in the destination, is refused with everything
        /// below it.
        mutating func decide(_ tree: SourceTree) {
            var refusedDirectories: [[String]] = []
            func isBelowRefused(_ components: [String]) -> Bool {
                refusedDirectories.contains { components.count > $0.count && Array(components.prefix($0.count)) == $0 }
            }
            for directory in tree.directories where !isBelowRefused(directory) {
                if let refusal = decideDirectory(directory) {
                    entries.append(Entry(path: directory.joined(separator: "/"), action: refusal))
                    refusedDirectories.append(directory)
                }
            }
            for treeFile in tree.files where !isBelowRefused(treeFile.directory + [treeFile.name]) {
                guard let first = treeFile.sameFileAs else {
                    let entry = file(treeFile.source, at: treeFile.directory + [treeFile.name])
                    noteFirst(entry.action, at: treeFile.relativePath, hasOtherNames: treeFile.hasOtherNames)
                    entries.append(entry)
                    continue
                }
                entries.append(Entry(path: treeFile.relativePath, action: link(to: first, at: treeFile.relativePath)))
            }
            for entry in tree.copiedAsIs where !isBelowRefused(entry.directory + [entry.name]) {
                decideAsIs(entry)
            }
            for entry in tree.unreadable where !isBelowRefused(entry.components) {
                entries.append(
                    Entry(path: entry.components.joined(separator: "/"), action: .refuse(reason: entry.detail)))
            }
        }

        /// The refusal of the tree's `directory`, or nil when it would be copied (an entry saying it would be
        /// created is added when it is not there yet).
        private mutating func decideDirectory(_ directory: [String]) -> Action? {
            let path = directory.joined(separator: "/")
            if let reserved = CopyPreview.reserved(path) { return reserved }
            guard let present = try? fileSystem.statusAt(AT_FDCWD, destination + "/" + path) else {
                entries.append(Entry(path: path, action: .createDirectory))
                return nil
            }
            return present.kind == .directory ? nil : .refuse(reason: DestinationDirectory.notADirectory(present.kind))
        }

        /// Decides a symbolic link, FIFO, socket or device of a tree: a link to its first name's copy, or made
        /// anew.
        private mutating func decideAsIs(_ entry: SourceTree.AsIs) {
            let path = entry.relativePath
            let status = try? fileSystem.statusAt(AT_FDCWD, entry.source)
            if let first = status.flatMap({ firstNames.meet($0, at: path) }) {
                entries.append(Entry(path: path, action: link(to: first, at: path)))
                return
            }
            let action = CopyPreview.asIs(
                entry.source, at: destination + "/" + path, overwrite: overwrite, fileSystem: fileSystem)
            noteFirst(action, at: path, hasOtherNames: (status?.linkCount ?? 1) > 1)
            entries.append(Entry(path: path, action: action))
        }

        /// The fate of the file `source` copied to `path` below the destination, the journal of its directory
        /// (and the partial it names) consulted first.
        private mutating func file(_ source: String, at path: [String]) -> Entry {
            let relativePath = path.joined(separator: "/")
            let directory = Array(path.dropLast())
            if let holder = journals.holder(of: directory) {
                entries.append(Entry(path: journals.journalPath(of: directory), action: .wait(holder: holder)))
            }
            var action = CopyPreview.file(
                source, at: destination + "/" + relativePath, overwrite: overwrite, comparesContent: comparesContent,
                fileSystem: fileSystem)
            switch action {
            case .copy, .replace:
                action =
                    journals.interrupted(source: source, name: path.last ?? "", in: directory, overwrite: overwrite)
                    ?? action
            case .skip, .refuse, .link, .make, .createDirectory, .resume, .restart, .wait:
                break
            }
            return Entry(path: relativePath, action: action)
        }

        /// A later name of the file first met at `first`: a hard link to its copy, refused when that copy is.
        private func link(to first: String, at path: String) -> Action {
            guard !refusedFirsts.contains(first) else {
                return .refuse(reason: "\(DisplayText.escaped(first)), the same file, would not be copied")
            }
            return CopyPreview.hardLink(path, to: first, in: destination, overwrite: overwrite, fileSystem: fileSystem)
        }

        /// Remembers the first name at `path` of an entry with other names whose copy would be refused, so that
        /// its later names would fail too.
        private mutating func noteFirst(_ action: Action, at path: String, hasOtherNames: Bool) {
            if case .refuse = action, hasOtherNames { refusedFirsts.insert(path) }
        }
    }

    /// The fate of the regular file `source` copied to `destination`.
    private static func file(
        _ source: String, at destination: String, overwrite: Bool, comparesContent: Bool, fileSystem: FileSystem
    ) -> Action {
        if let refusal = reserved(destination) { return refusal }
        let sourceStatus: FileStatus
        do throws(Errno) {
            sourceStatus = try fileSystem.statusOfPath(source)
        } catch {
            return .refuse(reason: "cannot read it: \(error.explained)")
        }
        guard sourceStatus.kind == .regularFile else { return .refuse(reason: "it is \(sourceStatus.kind)") }
        guard let existing = try? fileSystem.statusAt(AT_FDCWD, destination) else { return .copy }
        if existing.identity == sourceStatus.identity { return .refuse(reason: "it is the source itself") }
        if existing.kind == .directory { return replacing(existing, overwrite: overwrite) }
        // Why the run would take it for the source's copy, as the run decides it (by size and time unread, else
        // by content); nil when it differs.
        let same: String?
        if !comparesContent, existing.isUnchangedCopy(of: sourceStatus) {
            same = "same size and time"
        } else if existing.kind == .regularFile, existing.size == sourceStatus.size,
            let left = digest(of: source, fileSystem: fileSystem),
            left == digest(of: destination, fileSystem: fileSystem)
        {
            same = "same content"
        } else {
            same = nil
        }
        if let same {
            // One whose metadata would change in place while other names share its inode is copied anew; any
            // other is skipped, given its source's mode, owner and times where they differ (said with the skip).
            if existing.sharesMetadataWithOtherNames(asCopyOf: sourceStatus, asUser: effectiveUser) { return .replace }
            let aligned =
                existing.hasMetadata(of: sourceStatus, asUser: effectiveUser)
                ? "" : "; its mode, owner or times would be set to the source's"
            return .skip(reason: same + aligned)
        }
        return replacing(existing, overwrite: overwrite)
    }

    /// The fate of the symbolic link, FIFO, socket or device `source` copied to `destination`, as the copy
    /// decides it: made when nothing is there, skipped when the same link (or a FIFO, socket or device of the
    /// same kind) is, the entry itself refused.
    private static func asIs(_ source: String, at destination: String, overwrite: Bool, fileSystem: FileSystem)
        -> Action
    {
        if let refusal = reserved(destination) { return refusal }
        let status: FileStatus
        var target: String?
        do throws(Errno) {
            status = try fileSystem.statusAt(AT_FDCWD, source)
            if status.kind == .symbolicLink { target = try fileSystem.readLinkAt(AT_FDCWD, source) }
        } catch {
            return .refuse(reason: "cannot read it: \(error.explained)")
        }
        guard status.kind.isCopiedAsIs else { return .refuse(reason: "it changed while the tree was read") }
        let made: Action = target == nil ? .make(status.nodeDescription) : .link
        guard let existing = try? fileSystem.statusAt(AT_FDCWD, destination) else { return made }
        if existing.identity == status.identity { return .refuse(reason: "it is the source itself") }
        if let target {
            if existing.kind == .symbolicLink, (try? fileSystem.readLinkAt(AT_FDCWD, destination)) == target {
                return .skip(reason: "same link")
            }
        } else if existing.isCopy(of: status) {
            return .skip(reason: "same \(status.nodeDescription)")
        }
        return replacing(existing, overwrite: overwrite)
    }

    /// The fate of `path` below `destination` made a hard link to the copy of `first`, as the copy decides it:
    /// made when nothing is there, skipped when that copy is already there under this name.
    private static func hardLink(
        _ path: String, to first: String, in destination: String, overwrite: Bool, fileSystem: FileSystem
    ) -> Action {
        if let refusal = reserved(path) { return refusal }
        guard let existing = try? fileSystem.statusAt(AT_FDCWD, destination + "/" + path) else { return .link }
        if (try? fileSystem.statusAt(AT_FDCWD, destination + "/" + first))?.identity == existing.identity {
            return .skip(reason: "already a hard link to \(DisplayText.escaped(first))")
        }
        return replacing(existing, overwrite: overwrite)
    }

    /// The refusal of an entry whose name, the last component of `path`, the copy keeps for its journal and
    /// partials, as the real run refuses it; nil for any other name.
    private static func reserved(_ path: String) -> Action? {
        let name = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        return StagedFile.isReserved(name) ? .refuse(reason: StagedFile.reservedNameDetail) : nil
    }

    /// The fate of an entry already under a name the copy would make, which it does not keep: a directory there
    /// is a failure; anything else is replaced with `overwrite`, else refused.
    private static func replacing(_ existing: FileStatus, overwrite: Bool) -> Action {
        if existing.kind == .directory { return .refuse(reason: "a directory is there") }
        return overwrite ? .replace : .refuse(reason: "it exists and differs (use --overwrite to replace it)")
    }

    /// The ``ContentDigest`` of the regular file at `path` (a symbolic link is not followed, holes are not
    /// read); nil when unreadable.
    private static func digest(of path: String, fileSystem: FileSystem) -> SHA256Digest? {
        guard let descriptor = try? fileSystem.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0) else {
            return nil
        }
        defer { fileSystem.close(descriptor) }
        guard (try? fileSystem.status(descriptor))?.kind == .regularFile else { return nil }
        let hasher = PipelinedHasher(chunkSize: CopyOptions.defaultChunkSize)
        guard (try? hasher.feedContent(of: descriptor, length: nil, fileSystem: fileSystem)) != nil else { return nil }
        return hasher.state.finalize()
    }
}

/// The journals an interrupted run left in the destination's directories, read once each, never created,
/// locked or written: what ``CopyPreview`` consults to say what a real run would resume or replace.
private struct InterruptedJournals {
    /// One directory's journal as read: its entries by final name, and the pid of a run holding its lock.
    private struct Journal {
        var entries: [String: JournalEntry]
        var holder: Int32?
    }

    let destination: String
    let fileSystem: FileSystem
    private var opened: [[String]: Journal] = [:]
    /// The directories whose busy journal was already reported (one line each).
    private var reportedBusy: Set<[String]> = []

    init(destination: String, fileSystem: FileSystem) {
        self.destination = destination
        self.fileSystem = fileSystem
    }

    /// The path of `directory`'s journal below the destination, e.g. `photos/.statetui-journal`.
    func journalPath(of directory: [String]) -> String {
        (directory + [CopyJournal.fileName]).joined(separator: "/")
    }

    /// The pid of another run holding `directory`'s journal locked, the first time it is asked about that
    /// directory; nil when no run holds it, or when it was already reported.
    mutating func holder(of directory: [String]) -> Int32? {
        let journal = self.journal(of: directory)
        guard let holder = journal.holder, reportedBusy.insert(directory).inserted else { return nil }
        return holder
    }

    /// What a real run would do with the partial an interrupted run left for `name` in `directory`, when it
    /// would otherwise copy (or replace) the file whole: resume it, or replace it (with the reason); nil when
    /// no partial is there.
    mutating func interrupted(source: String, name: String, in directory: [String], overwrite: Bool) -> CopyPreview
        .Action?
    {
        let folder = ([destination] + directory).joined(separator: "/")
        guard let partial = try? fileSystem.statusAt(AT_FDCWD, folder + "/" + StagedFile.partialName(for: name)),
            partial.isPrivateRegularFile
        else { return nil }
        guard let entry = journal(of: directory).entries[name] else {
            return .restart(reason: "the journal has no record of it")
        }
        guard entry.source == source, let sourceStatus = try? fileSystem.statusOfPath(source),
            entry.sourceStatus?.sameContent(as: sourceStatus) == true
        else { return .restart(reason: "its source changed since") }
        switch entry.status {
        case .inProgress, .failed:
            guard partial.size >= entry.durableOffset else {
                return .restart(reason: "it is shorter than the journal's checkpoint")
            }
            let destinationFree = (try? fileSystem.statusAt(AT_FDCWD, folder + "/" + name)) == nil
            guard destinationFree || overwrite else { return nil }
            return .resume(offset: entry.durableOffset, size: sourceStatus.size)
        case .committing(let size, _):
            return partial.size == size
                ? .resume(offset: size, size: sourceStatus.size)
                : .restart(reason: "it does not hold the size the journal verified")
        case .damaged:
            return .restart(reason: "the journal's record of it is damaged")
        case .completed, .cancelled:
            return .restart(reason: "the journal says it was finished")
        }
    }

    /// `directory`'s journal, read the first time it is asked for (an empty one when there is none).
    private mutating func journal(of directory: [String]) -> Journal {
        if let known = opened[directory] { return known }
        let path = ([destination] + directory + [CopyJournal.fileName]).joined(separator: "/")
        var journal = Journal(entries: [:], holder: nil)
        if let descriptor = try? fileSystem.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0) {
            defer { fileSystem.close(descriptor) }
            if (try? fileSystem.status(descriptor))?.kind == .regularFile {
                journal.holder = (try? fileSystem.lockHolder(descriptor)) ?? nil
                let reader = try? CopyJournal.read(
                    descriptor, fileSystem: fileSystem, maximumNames: maximumNames(in: directory))
                journal.entries = reader?.finish().entries ?? [:]
            }
        }
        opened[directory] = journal
        return journal
    }

    /// The most names `directory`'s journal may hold, as the real run bounds it: one per entry of the
    /// directory plus ``CopyJournal/nameMargin``.
    private func maximumNames(in directory: [String]) -> Int {
        let path = ([destination] + directory).joined(separator: "/")
        guard let descriptor = try? fileSystem.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0) else {
            return CopyJournal.nameMargin
        }
        defer { fileSystem.close(descriptor) }
        return ((try? fileSystem.entriesAt(descriptor, 1 << 24))?.count ?? 0) + CopyJournal.nameMargin
    }
}
