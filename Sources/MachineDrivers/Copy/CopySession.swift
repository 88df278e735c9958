import FileTransfer
import SeedModels
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The transfers of one `statetui copy` command: one ``CopyTransfer`` per source file and one per
/// regular file of each source directory (copied like `cp -r`, keeping the tree under the destination).
/// Built only after the destination passed its preflight check.
///
/// A tree is read as it is copied (``SourceTree/Walk``), so its size has no bound: ``next()`` walks on until
/// it has the next file's transfer, creating the tree's directories, symbolic links, FIFOs, sockets and devices
/// on the way, and a
/// caller that reports each transfer once it settled (``settled(_:)``) lets the session finish and close
/// each directory as soon as everything in it is done. What the session keeps, then, is the directories the
/// walk is inside or that hold unsettled transfers, the first copy of each file with several names, and the
/// links still to make. ``takeAllFiles()`` reads everything at once instead, for the dashboard.
///
/// Every destination directory that receives files has its own journal, so crash recovery covers every
/// file of a tree; the tree's directories are created relative to their open parents and opened without
/// following a symbolic link (``DestinationDirectory/subdirectory(_:)``).
package final class CopySession {
    /// The destination directory's own journal.
    package let journal: CopyJournal
    /// The walk and the open directories. The session is used by one thread at a time (it is not
    /// `Sendable`): a journal opened on the way may announce, through the caller's output, that it waits for
    /// another process.
    private var stream: CopyStream

    /// Checks the destination, opens its journal and the source trees (a tree whose root cannot be read is
    /// refused here, before anything is written); the trees' contents are read as they are copied.
    ///
    /// Throws `destinationNotWritableDirectory` (nothing started), the journal's failure to open, a tree
    /// that cannot be read, or a tree that would be copied into itself. Two sources with the same name would
    /// write the same destination entry: refused up front.
    ///
    /// Each journal's lock makes this session the only writer of its directory: while another process
    /// copies into one, the session waits or refuses, as `whenBusy` says.
    ///
    /// `simulatesFaults` says whether a fault may be armed on the transfers (``CopyTransfer/failNextOutcome()``, the
    /// dashboard's `f` with `--simulate-faults`): only then does each job write through a check for one, a wrapper
    /// of its file system's writes made for each file (1.2% of a tree copy's instructions).
    package init(
        sources: [String], destinationDirectory: String, overwrite: Bool, options: CopyOptions,
        excluding: [String] = [], whenBusy: CopyJournal.WhenBusy = .wait(announce: { _, _ in }),
        simulatesFaults: Bool = true
    ) throws(CopySessionError) {
        let fileSystem = options.fileSystem
        let warnings = WarningLog()
        var options = options
        let forward = options.warn
        options.warn = { warning in
            warnings.add(warning)
            forward(warning)
        }
        let top: DestinationDirectory
        let topSyncs = FileSystemSyncs()
        do {
            top = try DestinationDirectory(path: destinationDirectory, fileSystem: fileSystem)
        } catch {
            throw .destination(error)
        }
        try Self.preflight(sources: sources, into: top)
        var pending: [CopyStream.Source] = []
        var madeTrees: Set<[UInt8]> = []
        for source in sources {
            // A symbolic link named on the command line is copied as a link, as `cp -a` and `rsync -a` do
            // (`LINK/`, with the slash, names the directory it leads to), and a FIFO, socket or device is made
            // anew, never opened; only a directory itself is copied as a tree.
            let status = try? fileSystem.statusAt(AT_FDCWD, source)
            switch status?.kind {
            case let kind? where kind.isCopiedAsIs:
                let name = CopyRequest.name(of: source)
                pending.append(.asIs(SourceTree.AsIs(directory: [], name: name, source: source)))
            case .directory?:
                do {
                    pending.append(
                        .tree(
                            source,
                            try SourceTree.Walk(
                                source, excluding: excluding, destination: top.asWalkDestination,
                                fileSystem: fileSystem)))
                } catch {
                    Self.close(pending)
                    throw .sourceTree(error)
                }
            default:
                pending.append(.file(source, status))
            }
        }
        do {
            journal = try CopyJournal(directory: top, whenBusy: whenBusy, fileSystemSyncs: topSyncs)
        } catch {
            Self.close(pending)
            throw .destination(error)
        }
        do {
            // A tree's own directory is made (or found) now, so an entry planted under its name since the
            // preflight is refused before anything is copied; the walk opens it again, without following a link.
            for case .tree(let source, let walk) in pending {
                let name = walk.name.isEmpty ? source : walk.name
                if try top.subdirectory(name).isNew { madeTrees.insert(FileName.bytes(name)) }
            }
        } catch {
            // Nothing was copied: a journal this run made, with nothing in it, is not left behind.
            _ = try? journal.removeIfSettled()
            Self.close(pending)
            throw .destination(error)
        }
        stream = CopyStream(
            top: top, journal: journal, sources: pending, overwrite: overwrite,
            options: SharedCopyOptions(options, faultsCanBeArmed: simulatesFaults), whenBusy: whenBusy,
            warnings: warnings, madeTrees: madeTrees, topSyncs: topSyncs)
    }

    /// Closes the directories the walks of `sources` hold open: a session that cannot be made leaves none open.
    private static func close(_ sources: [CopyStream.Source]) {
        for case .tree(_, var walk) in sources { walk.close() }
    }

    /// The checks a copy makes before it writes anything, which `--dry-run` makes too: every source names an entry
    /// to make (not `/`, `.` or `..`) and no two the same one; no source directory holds the destination (it
    /// would be copied into itself); no symbolic link or other entry is in the way of a tree's own directory in
    /// the destination, nor does a tree take a name the copy keeps for itself. Reads only.
    package static func preflight(sources: [String], into top: DestinationDirectory) throws(CopySessionError) {
        let fileSystem = top.fileSystem
        var seen: [[UInt8]: String] = [:]
        for source in sources {
            let name = CopyRequest.name(of: source)
            guard !name.isEmpty, name != ".", name != ".." else { throw .unnamedSource(source) }
            if let other = seen[FileName.bytes(name)] { throw .sameName(name, first: other, second: source) }
            seen[FileName.bytes(name)] = source
        }
        for source in sources where (try? fileSystem.statusAt(AT_FDCWD, source))?.kind == .directory {
            if let root = try? fileSystem.statusOfPath(source), top.isWithin(root.identity) {
                throw .intoItself(source: source)
            }
            let name = SourceTree.Walk.rootName(of: source)
            do {
                try top.checkSubdirectory(name.isEmpty ? source : name)
            } catch {
                throw .destination(error)
            }
        }
    }

    /// The next transfer, the sources in the order given and each tree's files depth first; nil when
    /// every source was read. Directories, symbolic links, FIFOs, sockets and devices met on the way are made
    /// now; what could not be made, and the entries left out, wait in ``takeMessages()``.
    package func next() -> CopyTransfer? {
        stream.next()
    }

    /// Every file still to come, read at once (the dashboard shows a row for each), each transfer made only
    /// when its row is first used: the session then finishes directories only in ``finish()``.
    package func takeAllFiles() -> CopyFiles {
        stream.finishesEarly = false
        var files = CopyFiles.Builder()
        while let file = stream.nextFile() {
            files.add(
                source: file.source,
                displayName: file.displayName
                    ?? CopyRequest.name(of: file.source),
                journal: file.journal,
                // Read now, so every row shows its size and the total row sums them all before a file is copied
                // (before: rows not started counted nothing, and the total said 100% with most files to go).
                size: (try? stream.options.fileSystem.statusAt(AT_FDCWD, file.source))?.size)
        }
        return files.files(overwrite: stream.overwrite, sharedOptions: stream.sharedOptions)
    }

    /// `transfer`, one of ``next()``'s, completed or failed for good: once everything in its directory is
    /// done and the walk left it, the directory's journal is removed (when settled), it gets its source's
    /// mode and times, and it is closed.
    package func settled(_ transfer: CopyTransfer) {
        stream.settled(transfer)
    }

    /// The lines to show since the last call: journals' problems, entries left out, links that could not be
    /// made, directories that could not be created or read.
    package func takeMessages() -> [String] {
        defer { stream.messages = [] }
        return stream.messages
    }

    /// The entries the session made (or found already made) since the last call, in the order it made them:
    /// symbolic links, FIFOs, sockets and devices as the walk meets them, the files that are hard links to a
    /// file copied earlier once ``finish()`` made them.
    package func takeMadeEntries() -> [MadeEntry] {
        defer { stream.made = [] }
        return stream.made
    }

    /// How many entries of the trees were left out (entries that vanished, kinds the system reports that are
    /// none of those copied).
    package var skippedCount: Int { stream.skippedCount }

    /// How many links the session made itself (not counting those already there).
    package var linkedCount: Int { stream.linkedCount }

    /// How many FIFOs, sockets and devices the session made (not counting those already there).
    package var nodeCount: Int { stream.nodeCount }

    /// How many links, FIFOs, sockets and devices were already there (a rerun): skipped.
    package var alreadyMadeCount: Int { stream.alreadyMadeCount }

    /// How many entries the session copies itself (a directory, a link, a FIFO, socket or device) failed.
    package var failedEntries: Int { stream.failures }

    /// True when an entry the session copies itself failed, which makes the command fail even if every
    /// transfer completed.
    package var hadFailures: Bool { failedEntries > 0 }

    /// Ends the session's work on the disk: removes every journal whose transfers all completed or were
    /// cancelled (nothing left to recover), gives the files that were hard links in the source their second
    /// names (once their first name is copied), then gives each tree directory not yet finished its source's
    /// mode and times, children before parents (as `cp -a` does after a directory's contents, so a read-only
    /// directory is still writable while it is filled and no directory time is changed by a later entry).
    /// Returns a message for each step that failed.
    package func finish() -> [String] {
        stream.finish()
    }
}

/// What the transfers could not keep, one warning per kind and reason (the first file named), so a
/// destination without extended attributes says so once, not once per file.
private final class WarningLog: Sendable {
    private let firsts = Locked<[CopyWarning]>([])
    private let reasons = Locked<Set<Int32>>([])

    func add(_ warning: CopyWarning) {
        switch warning {
        case .extendedAttributesNotCopied(_, let reason):
            guard reasons.withLock({ $0.insert(reason.rawValue).inserted }) else { return }
        }
        firsts.withLock { $0.append(warning) }
    }

    var all: [CopyWarning] { firsts.withLock { $0 } }
}

/// The walk of a session's sources and the destination directories it keeps open, under the session's lock.
private struct CopyStream {
    /// A source still to read.
    enum Source {
        /// A file named on the command line, and what it was when the session began (nil: it could not be
        /// read then; its transfer says why).
        case file(String, FileStatus?)
        /// A symbolic link, FIFO, socket or device named on the command line, made in the destination itself.
        case asIs(SourceTree.AsIs)
        case tree(String, SourceTree.Walk)
    }

    /// A destination directory of a tree, open while the walk is inside it or transfers into it are unsettled.
    ///
    /// A class, changed in place through ``directories``: as a value, each file's count in and out of it went
    /// through the dictionary's modify accessor, which allocates a frame for a value this size (two allocations
    /// and 6,000 instructions a file on the thread that starts and settles every transfer).
    final class Directory {
        let directory: DestinationDirectory
        /// Its path below the destination, for reopening it at the end (``CopyStream/reopen(_:)``).
        let components: [String]
        let source: FileStatus
        /// The source directory's path, to read its extended attributes when its copy is finished.
        let sourcePath: String
        let parent: Int?
        var journal: CopyJournal?
        /// Transfers into it not settled yet.
        var active = 0
        /// Subdirectories not finished yet.
        var children = 0
        /// The walk read all its entries.
        var left = false
        /// A hard link is made into it, or into a directory below it, at the very end: its mode and times wait.
        var waitsForLinks = false

        init(
            directory: DestinationDirectory, components: [String], source: FileStatus, sourcePath: String, parent: Int?
        ) {
            self.directory = directory
            self.components = components
            self.source = source
            self.sourcePath = sourcePath
            self.parent = parent
        }
    }

    /// A second name to give to a copied file at the end: `path` for the file at `filePath`, both below the
    /// destination as the output names them, `source` the path it is read from (the same file as the first
    /// name's source), to check that the first name's copy completed. Strings, not lists of components: a tree
    /// of a million names of half as many files keeps one until the end for each second name.
    struct HardLink {
        var path: String
        var filePath: String
        var source: String

        /// The directories from the destination down to the entry at `path`, and its name (names hold no `/`).
        static func split(_ path: String) -> (directory: [String], name: String) {
            var components = FileName.components(of: path)
            let name = components.removeLast()
            return (components, name)
        }
    }

    let top: DestinationDirectory
    let journal: CopyJournal
    var sources: [Source]
    let overwrite: Bool
    /// The options once for every transfer of the session, which each hold a reference, not a copy.
    let sharedOptions: SharedCopyOptions
    /// The session's options (``sharedOptions``' own).
    var options: CopyOptions { sharedOptions.value }
    let whenBusy: CopyJournal.WhenBusy
    let warnings: WarningLog
    /// False once ``CopySession/transfers`` read everything: directories then wait for ``finish()``.
    var finishesEarly = true

    var directories: [Int: Directory] = [:]
    private var lastID = 0
    /// The directories the current walk is inside, the root first.
    private var inside: [Int] = []
    /// Which directory each unsettled transfer writes into.
    private var directoryOf: [ObjectIdentifier: Int] = [:]
    private var hardLinks: [HardLink] = []
    /// The first name of each file with other names met so far, shared by every source.
    private var firstNames = FirstNames()
    /// Finished directories whose mode and times wait for the hard links, children before parents.
    private var waiting: [(components: [String], source: FileStatus, sourcePath: String)] = []
    var messages: [String] = []
    /// The names of the trees' own directories this run made in the destination (as bytes): the walk opens each
    /// again, and it is new (``DestinationDirectory/isNew``).
    private let madeTrees: Set<[UInt8]>
    /// The names whose transfers failed this run, by journal, kept in it for the next run (their failures were
    /// said): what else a journal keeps unsettled at its directory's end an earlier run left.
    private var failedHere: [ObjectIdentifier: Set<String>] = [:]
    /// The entries made since ``CopySession/takeMadeEntries()`` last took them.
    var made: [MadeEntry] = []
    var skippedCount = 0
    var linkedCount = 0
    var nodeCount = 0
    var alreadyMadeCount = 0
    var failures = 0
    /// The device of the destination's own file system, whose one `syncfs` at the session's end makes durable the
    /// removals of the journals of the tree directories finished on it (``close(_:)``); nil where the file system has
    /// no such call, or the destination's status cannot be read: each removal is then synced on its own.
    private let topDevice: UInt64?
    /// Whether a journal was removed whose removal waits for the sync at the session's end.
    private var removalsToSync = false
    /// The syncs of the destination's file system that the batches of commits of every journal on it share.
    private let topSyncs: FileSystemSyncs

    init(
        top: DestinationDirectory, journal: CopyJournal, sources: [Source], overwrite: Bool,
        options: SharedCopyOptions, whenBusy: CopyJournal.WhenBusy, warnings: WarningLog, madeTrees: Set<[UInt8]>,
        topSyncs: FileSystemSyncs
    ) {
        self.topSyncs = topSyncs
        self.top = top
        self.journal = journal
        self.sources = sources
        self.madeTrees = madeTrees
        self.overwrite = overwrite
        sharedOptions = options
        self.whenBusy = whenBusy
        self.warnings = warnings
        messages = journal.problems.map { "\(journal.path): \($0)" }
        topDevice = top.syncsFileSystem ? top.device : nil
    }

    /// A failure of an entry the session makes itself.
    private mutating func fail(_ message: String) {
        messages.append(message)
        failures += 1
    }

    /// Counts and keeps `entry` for the output: one the session made, or one already there (a rerun).
    private mutating func note(_ entry: MadeEntry) {
        made.append(entry)
        switch entry {
        case .symbolic, .hard: linkedCount += 1
        case .node: nodeCount += 1
        case .sameSymbolic, .sameHard, .sameNode: alreadyMadeCount += 1
        }
    }

    /// A file to copy as the walk met it: read from `source`, shown as `displayName` (nil: its file name), into
    /// `journal`'s directory, which is tree directory `directory` (nil: the destination itself).
    struct FileToCopy {
        var source: String
        var displayName: String?
        var journal: CopyJournal
        var directory: Int?
        /// The size the walk or the session read (a hint for the copy: ``CopyJob/run(sizeHint:progress:filesClosed:stopAsked:)``).
        var size: Int64?
    }

    /// The next file's transfer, counted as unsettled in its directory.
    mutating func next() -> CopyTransfer? {
        guard let file = nextFile() else { return nil }
        let transfer = CopyTransfer(
            source: file.source, destinationDirectory: file.journal.directory.path, overwrite: overwrite,
            journal: file.journal, sharedOptions: sharedOptions, displayName: file.displayName,
            expectedSize: file.size)
        if let id = file.directory {
            directories[id]?.active += 1
            directoryOf[ObjectIdentifier(transfer)] = id
        }
        return transfer
    }

    /// The next file to copy, the sources in the order given and each tree's files depth first; nil when every
    /// source was read.
    mutating func nextFile() -> FileToCopy? {
        while !sources.isEmpty {
            switch sources[0] {
            case .file(let source, let status):
                sources.removeFirst()
                // A further name of a file met before, in a tree or on the command line, is made a hard link to
                // its copy, as `cp -a` does.
                let name = CopyRequest.name(of: source)
                if let status, let first = firstNames.meet(status, at: name) {
                    hardLinks.append(HardLink(path: name, filePath: first, source: source))
                    continue
                }
                return FileToCopy(source: source, journal: journal, size: status?.size)
            case .asIs(let entry):
                sources.removeFirst()
                makeAsIs(entry, in: top)
            case .tree:
                if let file = advanceTree() { return file }
            }
        }
        return nil
    }

    /// Advances the tree first in ``sources`` by one entry, and removes it once read; returns the entry's file
    /// to copy, if it is one. The walk is moved out of the list while it advances, never copied: a copy, made
    /// by binding it in a `switch` on the list's element, retained its every open directory's names (callgrind,
    /// 2,000 empty files: the headless loop's thread 160.4 M -> 151.1 M instructions).
    private mutating func advanceTree() -> FileToCopy? {
        var taken = Source.file("", nil)
        swap(&taken, &sources[0])
        guard case .tree(let source, var walk) = consume taken else {
            preconditionFailure("Internal inconsistency: the first source is not a tree")
        }
        guard let entry = walk.next(sharing: &firstNames) else {
            sources.removeFirst()
            for id in inside.reversed() { leave(id) }
            inside = []
            return nil
        }
        let file = take(entry, of: source, walk: &walk)
        sources[0] = .tree(source, consume walk)
        return file
    }

    /// Makes what `entry` asks for; returns a file to copy.
    private mutating func take(_ entry: SourceTree.Entry, of source: String, walk: inout SourceTree.Walk)
        -> FileToCopy?
    {
        switch entry {
        case .directory(let components, let status):
            // Its path as the walk reads it: the tree's root, then the names below it.
            let path = components.dropFirst().reduce(source) { SourceTree.path(of: $1, in: $0) }
            enter(components, source: status, at: path, walk: &walk)
        case .leave:
            if let id = inside.popLast() { leave(id) }
        case .skipped(let entry):
            messages.append(entry.description)
            skippedCount += 1
        case .unreadable(let entry):
            // Only this entry fails (a directory: with everything below it); the walk goes on beside it.
            fail(entry.description)
        case .asIs(let entry):
            guard let directory = inside.last.flatMap({ directories[$0]?.directory }) else {
                preconditionFailure("Internal inconsistency: no directory for \(entry.source)")
            }
            makeAsIs(entry, in: directory)
        case .file(let file):
            return fileToCopy(file)
        }
        return nil
    }

    /// Makes the directory the walk entered, inside the one it is in, and goes into it; when it cannot be made,
    /// fails it and skips what the walk would read inside it.
    private mutating func enter(
        _ components: [String], source status: FileStatus, at sourcePath: String, walk: inout SourceTree.Walk
    ) {
        let parentID = inside.last
        let parent = parentID.flatMap { directories[$0]?.directory } ?? top
        do throws(TransferError) {
            let name = components[components.count - 1]
            let made = try parent.subdirectory(
                name, madeEarlier: parentID == nil && madeTrees.contains(FileName.bytes(name)))
            // A read-only directory a run before this one finished is filled again (its mode is set at the end).
            try made.allowOwnerWrites()
            lastID += 1
            directories[lastID] = Directory(
                directory: made, components: components, source: status, sourcePath: sourcePath, parent: parentID)
            if let parentID { directories[parentID]?.children += 1 }
            inside.append(lastID)
        } catch {
            fail(error.description)
            walk.skipEntries()
        }
    }

    /// Makes a symbolic link, FIFO, socket or device like the source's in `directory` (the one the walk is in,
    /// or the destination for one named on the command line), as its kind is now, or a hard link to the one
    /// made for an earlier name of it; a failure is a failed entry. The entry itself there (a copy onto the
    /// source) is refused, as a file is.
    private mutating func makeAsIs(_ entry: SourceTree.AsIs, in directory: DestinationDirectory) {
        let fileSystem = options.fileSystem
        let path = entry.relativePath
        do throws(TransferError) {
            let status: FileStatus
            var target: String?
            do throws(Errno) {
                status = try fileSystem.statusAt(AT_FDCWD, entry.source)
                if status.kind == .symbolicLink { target = try fileSystem.readLinkAt(AT_FDCWD, entry.source) }
            } catch {
                throw TransferError.sourceUnreadable(path: entry.source, reason: error)
            }
            guard status.kind.isCopiedAsIs else {
                throw TransferError.sourceChanged(path: entry.source, detail: "it is \(status.kind) now")
            }
            if try directory.status(of: entry.name)?.identity == status.identity {
                throw TransferError.sameFile(source: entry.source, destination: directory.path(of: entry.name))
            }
            if let first = firstNames.meet(status, at: path) {
                // A further name of a link, FIFO, socket or device made before is made a hard link to it, as
                // `cp -a` keeps one (made at once: the first name was made when it was met).
                let (firstDirectory, firstName) = HardLink.split(first)
                let made = try directory.link(
                    entry.name, to: firstName, in: try reopen(firstDirectory), copyOf: status, overwrite: overwrite)
                note(made ? .hard(path: path, to: first) : .sameHard(path: path, to: first))
                return
            }
            let result: DestinationDirectory.MadeAsIs
            if let target {
                result = try directory.copySymbolicLink(
                    entry.name, target: target, source: status, attributesOf: entry.source, overwrite: overwrite)
                note(result.made ? .symbolic(path: path, target: target) : .sameSymbolic(path: path))
            } else {
                result = try directory.copySpecialFile(
                    entry.name, source: status, attributesOf: entry.source, overwrite: overwrite)
                let kind = status.nodeDescription
                note(result.made ? .node(path: path, kind: kind) : .sameNode(path: path, kind: kind))
            }
            if let reason = result.attributesNotCopied {
                options.warn(.extendedAttributesNotCopied(path: directory.path(of: entry.name), reason: reason))
            }
        } catch {
            fail(error.description)
        }
    }

    /// The file to copy for `file`, with its directory's journal (opened with the directory's first file); nil
    /// for a further name of a file already copied, which becomes a hard link once that copy is done, or when
    /// the journal cannot be opened (a failed entry).
    private mutating func fileToCopy(_ file: SourceTree.File) -> FileToCopy? {
        guard let id = inside.last, let directory = directories[id] else {
            preconditionFailure("Internal inconsistency: no directory for \(file.relativePath)")
        }
        if let first = file.sameFileAs {
            // The first name's path below the destination is its path in the tree.
            hardLinks.append(HardLink(path: file.relativePath, filePath: first, source: file.source))
            directory.waitsForLinks = true
            return nil
        }
        let journal: CopyJournal
        if let opened = directory.journal {
            journal = opened
        } else {
            do {
                journal = try CopyJournal(
                    directory: directory.directory, whenBusy: whenBusy,
                    fileSystemSyncs: onTopFileSystem(directory.directory) ? topSyncs : FileSystemSyncs())
            } catch {
                fail(error.description)
                return nil
            }
            messages += journal.problems.map { "\(journal.path): \($0)" }
            directory.journal = journal
        }
        return FileToCopy(
            source: file.source, displayName: file.relativePath, journal: journal, directory: id, size: file.size)
    }

    /// The walk read every entry of directory `id`.
    private mutating func leave(_ id: Int) {
        directories[id]?.left = true
        finishIfDone(id)
    }

    mutating func settled(_ transfer: CopyTransfer) {
        if let journal = transfer.journal {
            // Still there once the settled ones are forgotten: it failed, and the journal keeps it for a rerun.
            if journal.forgetSettled(named: transfer.request.name) {
                failedHere[ObjectIdentifier(journal), default: []].insert(transfer.request.name)
            }
        }
        guard let id = directoryOf.removeValue(forKey: ObjectIdentifier(transfer)) else { return }
        directories[id]?.active -= 1
        finishIfDone(id)
    }

    /// Finishes directory `id` once the walk left it and nothing in it or below it is unsettled: its journal
    /// removed when settled, its source's mode and times given (unless hard links are still to be made into
    /// it or below it), and closed. Then its parent may be done too.
    private mutating func finishIfDone(_ id: Int) {
        guard finishesEarly, let directory = directories[id], directory.left, directory.active == 0,
            directory.children == 0
        else { return }
        directories[id] = nil
        if let journal = directory.journal { messages += close(journal) }
        if directory.waitsForLinks {
            waiting.append((directory.components, directory.source, directory.sourcePath))
        } else if let problem = copyMetadata(to: directory.directory, from: directory.source, at: directory.sourcePath)
        {
            messages.append(problem)
        }
        guard let parent = directory.parent else { return }
        directories[parent]?.children -= 1
        if directory.waitsForLinks { directories[parent]?.waitsForLinks = true }
        finishIfDone(parent)
    }

    /// Removes `journal` when nothing in it is left to recover; otherwise, in a run that copies everything it
    /// reads (headless), says what it keeps that an earlier run left and this run did not copy (a source left
    /// out or gone since): before, a killed run's partial of such a file stayed with the journal, unmentioned,
    /// however large. Returns the lines to show.
    ///
    /// The removal of a tree directory's journal, on the destination's file system, is made durable by the one sync
    /// of that file system at the session's end (``finish()``), not by a sync of its directory now: the thread that
    /// walks the trees and starts the copies closes each directory's journal, and waited a device round trip a
    /// directory. The destination's own journal (a copy of files named on the command line) syncs its directory, as
    /// one directory's sync costs less than the whole file system's. A journal whose name never became durable
    /// needs neither (``CopyJournal/nameIsDurable``).
    private mutating func close(_ journal: CopyJournal) -> [String] {
        let failed = failedHere.removeValue(forKey: ObjectIdentifier(journal)) ?? []
        // A tree directory's journal shares the destination's syncs exactly when it is on its file system.
        let syncedAtEnd = journal !== self.journal && journal.fileSystemSyncs === topSyncs
        let durable = journal.nameIsDurable
        do throws(TransferError) {
            if try journal.removeIfSettled(syncing: !syncedAtEnd) {
                if syncedAtEnd, durable { removalsToSync = true }
                return []
            }
            guard finishesEarly else { return [] }
        } catch {
            return [error.description]
        }
        let directory = journal.directory
        return journal.entries.filter { !$0.value.status.isSettled && !failed.contains($0.key) }
            .sorted { FileName.precedes($0.key, $1.key) }
            .map { name, entry in
                // The source's path is the earlier run's, maybe relative to another directory: not judged here.
                let partial = StagedFile.partialName(for: name)
                let kept =
                    (try? directory.status(of: partial)) != nil
                    ? "an earlier run's copy of \(DisplayText.escaped(name)) in "
                        + DisplayText.bounded(directory.path(of: partial))
                    : "an earlier run's unfinished record of \(DisplayText.escaped(name))"
                return "\(DisplayText.bounded(directory.path(of: CopyJournal.fileName))) keeps \(kept): this run did "
                    + "not copy its source \(DisplayText.bounded(entry.source)) (left out, or not found); a run that "
                    + "copies it continues it"
            }
    }

    /// Whether `directory` is on the destination's own file system (``topDevice``): a sync of that file system
    /// makes what was done in it durable.
    private func onTopFileSystem(_ directory: DestinationDirectory) -> Bool {
        guard let topDevice else { return false }
        return directory.device == topDevice
    }

    /// Gives the tree directory `directory` the metadata of its source, the directory at `sourcePath` whose
    /// status was `source` (``DestinationDirectory/copyMetadata(from:attributesOf:)``); the failure to say, if
    /// any. Extended attributes that cannot be copied are a warning, as for a file.
    private func copyMetadata(to directory: DestinationDirectory, from source: FileStatus, at sourcePath: String)
        -> String?
    {
        do throws(TransferError) {
            if let reason = try directory.copyMetadata(from: source, attributesOf: sourcePath) {
                options.warn(.extendedAttributesNotCopied(path: directory.path, reason: reason))
            }
            return nil
        } catch {
            return error.description
        }
    }

    /// The tree directory `components` below the destination, opened again without following a link.
    private func reopen(_ components: [String]) throws(TransferError) -> DestinationDirectory {
        var directory = top
        for name in components { directory = try directory.subdirectory(name) }
        return directory
    }

    mutating func finish() -> [String] {
        var problems = messages
        messages = []
        // The directories not finished yet, children (made later) before parents.
        let open = directories.sorted { $0.key > $1.key }.map(\.value)
        directories = [:]
        for journal in [journal] + open.compactMap(\.journal) { problems += close(journal) }
        for link in hardLinks {
            do throws(TransferError) {
                let (directory, name) = HardLink.split(link.path)
                let (fileDirectory, file) = HardLink.split(link.filePath)
                let source: FileStatus
                do throws(Errno) {
                    source = try options.fileSystem.statusAt(AT_FDCWD, link.source)
                } catch {
                    throw TransferError.sourceUnreadable(path: link.source, reason: error)
                }
                let made = try reopen(directory).link(
                    name, to: file, in: try reopen(fileDirectory), copyOf: source, overwrite: overwrite)
                note(made ? .hard(path: link.path, to: link.filePath) : .sameHard(path: link.path, to: link.filePath))
            } catch {
                problems.append(error.description)
                failures += 1
            }
        }
        hardLinks = []
        problems += warnings.all.map { "warning: \($0) (and the same for any other file)" }
        for (components, source, sourcePath) in waiting {
            do throws(TransferError) {
                if let problem = copyMetadata(to: try reopen(components), from: source, at: sourcePath) {
                    problems.append(problem)
                }
            } catch {
                problems.append(error.description)
            }
        }
        waiting = []
        for directory in open {
            if let problem = copyMetadata(to: directory.directory, from: directory.source, at: directory.sourcePath) {
                problems.append(problem)
            }
        }
        if removalsToSync {
            removalsToSync = false
            do throws(TransferError) {
                try top.syncFileSystem()
            } catch {
                problems.append(error.description)
                failures += 1
            }
        }
        return problems
    }
}

/// Why a copy session could not be prepared: nothing was started.
package enum CopySessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The destination is not a writable directory, or its journal cannot be opened.
    case destination(TransferError)
    /// Two sources share a file name, so both would be copied onto one destination file.
    case sameName(String, first: String, second: String)
    /// A source path has no file name to copy onto (`/`, `.`, `..`).
    case unnamedSource(String)
    /// A source directory is beyond the bounds of a tree copy or cannot be read.
    case sourceTree(SourceTreeError)
    /// A source directory holds the destination: its copy would be copied into itself without end.
    case intoItself(source: String)

    /// One line naming the cause.
    package var description: String {
        switch self {
        case .destination(let error):
            error.description
        case .sameName(let name, let first, let second):
            "\(DisplayText.escaped(first)) and \(DisplayText.escaped(second)) would both be copied to "
                + "'\(DisplayText.escaped(name))'"
        case .unnamedSource(let source):
            "'\(DisplayText.escaped(source))' names no file to copy: name a file or a directory by its own name "
                + "(DIR/. does not stand for the contents of DIR, as it does for cp -a)"
        case .sourceTree(let error):
            error.description
        case .intoItself(let source):
            "cannot copy the directory \(DisplayText.escaped(source)) into itself: the destination lies inside it"
        }
    }
}

/// An entry a ``CopySession`` made itself rather than through a transfer (a link, a FIFO, a socket, a device),
/// named by its path below the destination.
package enum MadeEntry: Hashable, Sendable, CustomStringConvertible {
    /// A symbolic link copied as a link, with its target as it is.
    case symbolic(path: String, target: String)
    /// A symbolic link already there with the same target (a rerun): left as it is.
    case sameSymbolic(path: String)
    /// A file that is a hard link to a file copied earlier in the tree, given that file's second name.
    case hard(path: String, to: String)
    /// The same hard link already there (a rerun): left as it is.
    case sameHard(path: String, to: String)
    /// A FIFO, socket or device made like its source, `kind` describing it (``FileStatus/nodeDescription``).
    case node(path: String, kind: String)
    /// An entry of the same kind already there (a device: for the same device), a rerun: given the source's
    /// metadata, not made again.
    case sameNode(path: String, kind: String)

    /// Whether the entry was already there: a rerun skipped it.
    package var wasThere: Bool {
        switch self {
        case .symbolic, .hard, .node: false
        case .sameSymbolic, .sameHard, .sameNode: true
        }
    }

    /// The headless line, every name escaped: `photos/latest: linked -> 2024/a.jpg`,
    /// `photos/b.jpg: hard link to photos/a.jpg`, `photos/latest: skipped (same link)`, `run/pipe: made (FIFO)`,
    /// `run/pipe: skipped (same FIFO)`.
    package var description: String {
        switch self {
        case .symbolic(let path, let target):
            "\(DisplayText.escaped(path)): linked -> \(DisplayText.escaped(target))"
        case .sameSymbolic(let path):
            "\(DisplayText.escaped(path)): skipped (same link)"
        case .hard(let path, let file):
            "\(DisplayText.escaped(path)): hard link to \(DisplayText.escaped(file))"
        case .sameHard(let path, let file):
            "\(DisplayText.escaped(path)): skipped (already a hard link to \(DisplayText.escaped(file)))"
        case .node(let path, let kind):
            "\(DisplayText.escaped(path)): made (\(kind))"
        case .sameNode(let path, let kind):
            "\(DisplayText.escaped(path)): skipped (same \(kind))"
        }
    }
}
