import FileTransfer
import Foundation
import MachineDrivers
import SeedModels
import Support
import Testing

/// A tree copy streams (issue 23): the session hands out one transfer at a time as it reads the tree, and a
/// directory is finished (journal removed, its source's mode and times given, closed) as soon as the walk
/// left it and its transfers settled, not at the end of the whole copy.
@Suite struct CopySessionTests {
    @Test(.timeLimit(.minutes(1))) func aDirectoryIsFinishedOnceItsTransfersSettledNotAtTheEnd() async throws {
        let root = NSTemporaryDirectory() + "statetui-copysession-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (source, destination) = try Self.makeTwoDirectoryTree(in: root)
        let modified = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o750, .modificationDate: modified], ofItemAtPath: source + "/a")
        let session = try CopySession(
            sources: [source], destinationDirectory: destination, overwrite: false, options: CopyOptions())

        let first = try #require(session.next())
        #expect(first.request.id == "tree/a/x")
        await Self.complete(first)
        session.settled(first)
        // The walk is still inside `a`: nothing is finished yet.
        #expect(FileManager.default.fileExists(atPath: destination + "/tree/a/.statetui-journal"))

        let second = try #require(session.next())
        #expect(second.request.id == "tree/b/y")
        // Leaving `a` for `b` finished `a`, long before the session ends.
        #expect(!FileManager.default.fileExists(atPath: destination + "/tree/a/.statetui-journal"))
        let attributes = try FileManager.default.attributesOfItem(atPath: destination + "/tree/a")
        #expect(attributes[.posixPermissions] as? Int == 0o750)
        #expect(attributes[.modificationDate] as? Date == modified)

        await Self.complete(second)
        session.settled(second)
        #expect(session.next() == nil)
        #expect(session.finish() == [])
        #expect(FileManager.default.contents(atPath: destination + "/tree/a/x") == Data([1, 2, 3]))
        #expect(FileManager.default.contents(atPath: destination + "/tree/b/y") == Data([4, 5]))
        #expect(!FileManager.default.fileExists(atPath: destination + "/tree/b/.statetui-journal"))
        #expect(!FileManager.default.fileExists(atPath: destination + "/.statetui-journal"))
    }

    /// A tree whose own directory in the destination is taken by a file or a symbolic link is refused before
    /// anything is written, whichever source comes first (issue 23's "nothing started"): before, the journal was
    /// created first and left behind (`.statetui-journal`, 0 bytes), and a tree named before the refused one got
    /// its directory. The same check is the dry run's (``CopySession/preflight(sources:into:)``).
    @Test(arguments: ["file", "link"]) func aTreeWhoseDirectoryIsTakenIsRefusedWithNothingWritten(inTheWay: String)
        throws
    {
        let root = NSTemporaryDirectory() + "statetui-copysession-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let destination = root + "/dest"
        for directory in [root + "/src/first", root + "/src/tree", destination] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try Data([1]).write(to: URL(fileURLWithPath: root + "/src/first/a"))
        try Data([2]).write(to: URL(fileURLWithPath: root + "/src/tree/b"))
        if inTheWay == "file" {
            try Data([3]).write(to: URL(fileURLWithPath: destination + "/tree"))
        } else {
            try FileManager.default.createSymbolicLink(atPath: destination + "/tree", withDestinationPath: root)
        }
        let detail =
            inTheWay == "file" ? "it is not a directory" : "it is a symbolic link, which the copy never follows"
        let refusal = CopySessionError.destination(.unsafeEntry(path: destination + "/tree", detail: detail))

        #expect(throws: refusal) {
            try CopySession(
                sources: [root + "/src/first", root + "/src/tree"], destinationDirectory: destination,
                overwrite: false, options: CopyOptions())
        }
        #expect(throws: refusal) {
            try CopySession.preflight(
                sources: [root + "/src/first", root + "/src/tree"], into: DestinationDirectory(path: destination))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination) == ["tree"])
    }

    /// A session that cannot be made once its trees' walks are open (the disk is full when the trees' own
    /// directories are made) closes them: none of its sources' directories stays open.
    @Test func aSessionRefusedAfterItsWalksBeganLeavesNoSourceDirectoryOpen() throws {
        let root = NSTemporaryDirectory() + "statetui-copysession-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let destination = root + "/dest"
        for directory in [root + "/src/one", root + "/src/two", destination] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        var options = CopyOptions()
        options.fileSystem.calls.makeDirectoryAt = { _, _, _ throws(Errno) in throw Errno(rawValue: ENOSPC) }
        #expect(
            throws: CopySessionError.destination(
                .outOfSpace(path: destination + "/one", reason: Errno(rawValue: ENOSPC)))
        ) {
            try CopySession(
                sources: [root + "/src/one", root + "/src/two"], destinationDirectory: destination,
                overwrite: false, options: options)
        }
        #expect(Self.openDirectories(under: root + "/src") == [])
    }

    /// The paths of this process's open descriptors that are `folder` or inside it.
    private static func openDirectories(under folder: String) -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { descriptor in
            guard
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor),
                target == folder || target.hasPrefix(folder + "/")
            else { return nil }
            return target
        }.sorted()
    }

    /// A second name of a file whose first name failed (a directory in its way) cannot be linked to it: the
    /// session says why, naming the first name (before: "cannot link d/s/b: No such file or directory"), and
    /// counts it failed.
    @Test(.timeLimit(.minutes(1))) func aSecondNameWhoseFirstFailedSaysWhy() async throws {
        let root = NSTemporaryDirectory() + "statetui-copysession-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let source = root + "/s"
        let destination = root + "/d"
        for directory in [source, destination + "/s/a"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try Data([1, 2]).write(to: URL(fileURLWithPath: source + "/a"))
        #expect(link(source + "/a", source + "/b") == 0)
        let session = try CopySession(
            sources: [source], destinationDirectory: destination, overwrite: false, options: CopyOptions())

        let first = try #require(session.next())
        await Self.complete(first, failing: true)
        session.settled(first)
        #expect(session.next() == nil)

        #expect(
            session.finish() == [
                "refusing to use \(destination)/s/b: it is the same file as \(destination)/s/a, whose copy is not "
                    + "there to link to"
            ])
        #expect(session.failedEntries == 1)
        #expect(!FileManager.default.fileExists(atPath: destination + "/s/b"))
    }

    /// A journal that keeps what an earlier run left of a file this run does not copy (left out here) is kept, and
    /// the headless session says so once its directory is done, naming the partial when there is one (before: the
    /// partial, however large, and the journal stayed without a word, exit 0). A file that failed in this run
    /// (`blocked`, a directory in its way) is not listed: its failure was said.
    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func anEarlierRunsPartialOfAFileNotCopiedIsNamed(partialKept: Bool) async throws {
        let root = NSTemporaryDirectory() + "statetui-copysession-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        for directory in [root + "/s", root + "/d/s/blocked"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try Data([1]).write(to: URL(fileURLWithPath: root + "/s/small"))
        try Data([2]).write(to: URL(fileURLWithPath: root + "/s/blocked"))
        try Data([2, 3]).write(to: URL(fileURLWithPath: root + "/s/big"))
        do {
            // An earlier run meant to copy both; this one leaves `big` out and fails `blocked`.
            let journal = try CopyJournal(directory: DestinationDirectory(path: root + "/d/s"))
            for name in ["big", "blocked"] {
                try journal.append(
                    .intent(
                        name: name, request: "s/" + name, source: root + "/s/" + name,
                        sourceStatus: try FileSystem.posix.statusOfPath(root + "/s/" + name), replaces: nil))
            }
        }
        let partial = root + "/d/s/" + StagedFile.partialName(for: "big")
        if partialKept { try Data([2]).write(to: URL(fileURLWithPath: partial)) }
        let session = try CopySession(
            sources: [root + "/s"], destinationDirectory: root + "/d", overwrite: false, options: CopyOptions(),
            excluding: ["big"])

        let blocked = try #require(session.next())
        #expect(blocked.request.name == "blocked")
        await Self.complete(blocked, failing: true)
        let small = try #require(session.next())
        await Self.complete(small)
        session.settled(blocked)
        session.settled(small)
        #expect(session.next() == nil)

        let kept =
            partialKept ? "an earlier run's copy of big in \(partial)" : "an earlier run's unfinished record of big"
        #expect(
            session.takeMessages() == [
                "\(root)/d/s/.statetui-journal keeps \(kept): this run did not copy its source \(root)/s/big (left "
                    + "out, or not found); a run that copies it continues it"
            ])
        #expect(session.finish() == [])
        #expect(FileManager.default.fileExists(atPath: partial) == partialKept)
        #expect(FileManager.default.fileExists(atPath: root + "/d/s/.statetui-journal"))
    }

    /// A tree's directories get their sources' extended attributes (ACLs, a default ACL among them) with their
    /// mode and times once their contents are copied, as `cp -a` gives them (before: only files got theirs, so
    /// a directory's ACLs were lost); each file gets its own from its source at its commit.
    @Test(.timeLimit(.minutes(1))) func aDirectoryGetsItsSourcesExtendedAttributesOnceItsContentsAreCopied()
        async throws
    {
        let root = NSTemporaryDirectory() + "statetui-copysession-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let source = root + "/src/tree"
        let destination = root + "/dest"
        for directory in [source + "/a", destination] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: source + "/a/x"))
        /// The path an open descriptor leads to; `DIR/<no name>` for a file with no name in `DIR` (which the
        /// kernel shows as `DIR/#INODE (deleted)`): a file read in one chunk is written so until complete.
        @Sendable func path(of descriptor: Int32) -> String {
            guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
            else { return "?" }
            guard path.hasSuffix(" (deleted)"), let slash = path.lastIndex(of: "/") else { return path }
            return path[...slash] + "<no name>"
        }
        let copied = Locked<[String]>([])
        var options = CopyOptions()
        let posix = options.fileSystem
        options.fileSystem.calls.copyExtendedAttributes = { from, to throws(Errno) in
            copied.withLock { $0.append(path(of: from) + " -> " + path(of: to)) }
            try posix.copyExtendedAttributes(from, to)
        }
        let session = try CopySession(
            sources: [source], destinationDirectory: destination, overwrite: false, options: options)

        let file = try #require(session.next())
        await Self.complete(file)
        session.settled(file)
        #expect(session.next() == nil)
        #expect(session.finish() == [])
        #expect(
            copied.withLock { $0 } == [
                source + "/a/x -> " + destination + "/tree/a/<no name>", source + "/a -> " + destination + "/tree/a",
                source + " -> " + destination + "/tree",
            ])
    }

    /// A symbolic link, FIFO or socket the session makes gets its source's extended attributes (ACLs, security
    /// labels), each read from the entry itself and set on the entry made, neither a link followed, as `cp -a`
    /// copies them (before: only files and directories got theirs); a destination that refuses them is one
    /// warning at the end, and the entry is still made.
    @Test func linksAndSpecialFilesGetTheirSourcesExtendedAttributes() throws {
        let root = NSTemporaryDirectory() + "statetui-copysession-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let source = root + "/src/tree"
        let destination = root + "/dest"
        for directory in [source, destination] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try #require(symlink("elsewhere", source + "/link") == 0)
        try #require(mkfifo(source + "/pipe", 0o600) == 0)
        let copied = Locked<[String]>([])
        var options = CopyOptions()
        options.fileSystem.calls.copyExtendedAttributesAt = { from, directory, name throws(Errno) in
            let at = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(directory)")) ?? "?"
            copied.withLock { $0.append(from + " -> " + at + "/" + name) }
            throw Errno(rawValue: ENOTSUP)
        }
        let session = try CopySession(
            sources: [source], destinationDirectory: destination, overwrite: false, options: options)

        #expect(session.next() == nil)
        #expect(
            session.finish() == [
                "warning: \(destination)/tree/link: extended attributes not copied: \(Errno(rawValue: ENOTSUP)) (and "
                    + "the same for any other file)"
            ])
        #expect(
            copied.withLock { $0 } == [
                source + "/link -> " + destination + "/tree/link", source + "/pipe -> " + destination + "/tree/pipe",
            ])
        var made = stat()
        #expect(lstat(destination + "/tree/pipe", &made) == 0 && made.st_mode & S_IFMT == S_IFIFO)
    }

    /// Starts `transfer` and waits, through its machine's states, until its copy completed.
    /// A fault armed on a session's transfer fails its next write only where the session simulates faults (the copy
    /// dashboard with `--simulate-faults`); elsewhere (a headless copy) no job writes through the check, and the
    /// file is copied. Each file is one chunk, written once.
    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func anArmedFaultFailsAWriteOnlyWhereTheSessionSimulatesFaults(simulatesFaults: Bool) async throws {
        let root = NSTemporaryDirectory() + "statetui-copysession-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let destination = root + "/dest"
        for directory in [root + "/src", destination] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: root + "/src/a"))
        let session = try CopySession(
            sources: [root + "/src/a"], destinationDirectory: destination, overwrite: false, options: CopyOptions(),
            simulatesFaults: simulatesFaults)
        let transfer = try #require(session.next())
        transfer.failNextOutcome()
        await Self.complete(transfer, failing: simulatesFaults)
        session.settled(transfer)
        let outcome: TransferState =
            simulatesFaults
            ? .failed(message: "cannot write \(destination)/a: Input/output error (simulated fault: --simulate-faults)")
            : .completed(file: destination + "/a")
        #expect(transfer.machine.state == outcome)
        #expect(FileManager.default.contents(atPath: destination + "/a") == (simulatesFaults ? nil : Data([1, 2, 3])))
        _ = session.finish()
    }

    /// The journals of a tree's directories cost the thread that walks the tree no sync of a directory (it waited two
    /// device round trips a directory: the new journal's name made durable, then its removal). A copy of two
    /// directories of one small file each, one at a time, syncs only for each file's commit (the file system with the
    /// commitment, then the directory with the rename) and, at its end, the file system once, which makes durable
    /// the removals of the directories' journals. A rerun that finds every file in place journals nothing a later
    /// run would need: it opens and removes a journal in each directory without a sync.
    @Test(.timeLimit(.minutes(1))) func treeJournalsAreRemovedWithOneSyncOfTheFileSystemAtTheEnd() async throws {
        let root = NSTemporaryDirectory() + "statetui-copysession-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (source, destination) = try Self.makeTwoDirectoryTree(in: root)
        let syncs = Locked<[String]>([])
        var options = CopyOptions()
        options.fileSystem.calls.sync = { descriptor throws(Errno) in
            let kind = (try? FileSystem.posix.status(descriptor))?.kind
            syncs.withLock { $0.append(kind == .directory ? "sync directory" : "sync file") }
            try FileSystem.posix.sync(descriptor)
        }
        options.fileSystem.calls.syncFileSystem = { descriptor throws(Errno) in
            syncs.withLock { $0.append("syncfs") }
            try FileSystem.posix.syncFileSystem!(descriptor)
        }
        let first = try CopySession(
            sources: [source], destinationDirectory: destination, overwrite: false, options: options)
        try await Self.copyAll(first)
        #expect(syncs.withLock { $0 } == ["syncfs", "sync directory", "syncfs", "sync directory", "syncfs"])

        syncs.withLock { $0.removeAll() }
        let rerun = try CopySession(
            sources: [source], destinationDirectory: destination, overwrite: false, options: options)
        try await Self.copyAll(rerun)
        #expect(syncs.withLock { $0 } == [])
        for journal in ["", "/tree", "/tree/a", "/tree/b"].map({ destination + $0 + "/.statetui-journal" }) {
            #expect(!FileManager.default.fileExists(atPath: journal))
        }
        #expect(FileManager.default.contents(atPath: destination + "/tree/a/x") == Data([1, 2, 3]))
        #expect(FileManager.default.contents(atPath: destination + "/tree/b/y") == Data([4, 5]))
    }

    /// A tree `ROOT/src/tree` of two directories, `a` holding `x` (3 bytes) and `b` holding `y` (2 bytes), and an
    /// empty destination `ROOT/dest`; returns their paths.
    private static func makeTwoDirectoryTree(in root: String) throws -> (source: String, destination: String) {
        let source = root + "/src/tree"
        let destination = root + "/dest"
        for directory in [source + "/a", source + "/b", destination] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: source + "/a/x"))
        try Data([4, 5]).write(to: URL(fileURLWithPath: source + "/b/y"))
        return (source, destination)
    }

    /// Runs every transfer of `session` to its end, one at a time, and finishes it; no problem is expected.
    private static func copyAll(_ session: CopySession) async throws {
        while let transfer = session.next() {
            await complete(transfer)
            session.settled(transfer)
        }
        #expect(session.finish() == [])
    }

    private static func complete(_ transfer: CopyTransfer, failing: Bool = false) async {
        let states = transfer.machine.engine.states()
        transfer.machine.send(.start)
        for await state in states {
            switch state.phase {
            case .completed:
                await transfer.finish()
                return
            case .failed(let message):
                if !failing { Issue.record("the copy failed: \(message)") }
                await transfer.finish()
                return
            case .idle, .running, .paused:
                continue
            }
        }
        Issue.record("the machine stopped before the copy ended: \(transfer.machine.state)")
    }
}
