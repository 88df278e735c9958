import Foundation
import Support
import Testing

@testable import FileTransfer

/// Reading a source directory for a tree copy, its bounds, and the destination side of a tree: its
/// directories created without following planted links, its journals removed once settled.
@Suite struct SourceTreeTests {
    /// `root/tree` with nested directories, an empty one, a symbolic link to a file and one to a
    /// directory outside the tree, and a FIFO.
    static func makeTree(in directory: TemporaryDirectory) throws -> String {
        let tree = try directory.directory("tree")
        let outside = try directory.directory("outside")
        try write([1], to: outside + "/secret")
        _ = try directory.directory("tree/b/c")
        _ = try directory.directory("tree/a")
        _ = try directory.directory("tree/empty")
        try write([2], to: tree + "/z.txt")
        try write([3], to: tree + "/b/one")
        try write([4], to: tree + "/b/c/two")
        try write([5], to: tree + "/a/three")
        try FileManager.default.createSymbolicLink(atPath: tree + "/b/link", withDestinationPath: outside + "/secret")
        try FileManager.default.createSymbolicLink(atPath: tree + "/linked-dir", withDestinationPath: outside)
        guard mkfifo(tree + "/fifo", 0o600) == 0 else { throw Errno.current }
        return tree
    }

    /// A path below the tree is its directories and name joined by `/`, exactly as the array join reads them
    /// (the definition the join made at its length replaced), for names with spaces, multi-byte characters
    /// and an empty directory list.
    @Test(
        arguments: [
            ([], "a"), (["tree"], "a.jpg"), (["tree", "photos", "2024"], "a b.jpg"), (["ä", "日本"], "ß"),
            (["tree", ""], "x"),
        ] as [([String], String)])
    func aPathBelowTheTreeJoinsItsComponents(directory: [String], name: String) {
        #expect(SourceTree.joined(directory[...], name) == (directory + [name]).joined(separator: "/"))
        #expect(
            SourceTree.File(directory: directory, name: name, source: "/src").relativePath
                == (directory + [name]).joined(separator: "/"))
        #expect(
            SourceTree.AsIs(directory: directory, name: name, source: "/src").relativePath
                == (directory + [name]).joined(separator: "/"))
    }

    @Test func aTreeIsReadDepthFirstInNameOrderWithoutFollowingLinks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = try Self.makeTree(in: directory)
        let tree = try SourceTree.walk(root)
        let expected = SourceTree(
            name: "tree",
            directories: [["tree"], ["tree", "a"], ["tree", "b"], ["tree", "b", "c"], ["tree", "empty"]],
            files: [
                .init(directory: ["tree", "a"], name: "three", source: root + "/a/three", size: 1),
                .init(directory: ["tree", "b", "c"], name: "two", source: root + "/b/c/two", size: 1),
                .init(directory: ["tree", "b"], name: "one", source: root + "/b/one", size: 1),
                .init(directory: ["tree"], name: "z.txt", source: root + "/z.txt", size: 1),
            ],
            copiedAsIs: [
                .init(directory: ["tree", "b"], name: "link", source: root + "/b/link"),
                .init(directory: ["tree"], name: "fifo", source: root + "/fifo"),
                .init(directory: ["tree"], name: "linked-dir", source: root + "/linked-dir"),
            ],
            skipped: [], unreadable: [])
        #expect(tree == expected)
        #expect(tree.files.map(\.relativePath) == ["tree/a/three", "tree/b/c/two", "tree/b/one", "tree/z.txt"])
    }

    /// Three names of one file in a tree: the first met is copied, the others name it as the same file.
    @Test func hardLinksInATreeNameTheFirstFileMet() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = try directory.directory("tree")
        _ = try directory.directory("tree/sub")
        try write([1, 2], to: root + "/a")
        #expect(link(root + "/a", root + "/sub/b") == 0 && link(root + "/a", root + "/c") == 0)
        try write([3], to: root + "/single")
        let tree = try SourceTree.walk(root)
        #expect(
            tree.files == [
                .init(directory: ["tree"], name: "a", source: root + "/a", hasOtherNames: true, size: 2),
                .init(directory: ["tree"], name: "c", source: root + "/c", sameFileAs: "tree/a", size: 2),
                .init(directory: ["tree"], name: "single", source: root + "/single", size: 1),
                .init(directory: ["tree", "sub"], name: "b", source: root + "/sub/b", sameFileAs: "tree/a", size: 2),
            ])
    }

    /// Patterns match the path below the root (`*` crossing `/`); a trailing `/` matches directories only,
    /// which are left out with their contents; a leading `/` or `./` anchors a pattern to the root, as rsync's
    /// does, its `*` not crossing a `/` (before, such a pattern matched nothing).
    @Test(
        arguments: [
            ([], ["tree/a/three", "tree/b/c/two", "tree/b/one", "tree/z.txt"]),
            (["*.txt"], ["tree/a/three", "tree/b/c/two", "tree/b/one"]),
            (["b/"], ["tree/a/three", "tree/z.txt"]),
            (["*/c/", "a"], ["tree/b/one", "tree/z.txt"]),
            (["three/"], ["tree/a/three", "tree/b/c/two", "tree/b/one", "tree/z.txt"]),
            // A leading `/` or `./` anchors to the root, where `*` stops at a `/` (before, these matched nothing).
            (["/b/", "./z.txt"], ["tree/a/three"]),
            (["/./a/three"], ["tree/b/c/two", "tree/b/one", "tree/z.txt"]),
            (["/*/one", "/*/two"], ["tree/a/three", "tree/b/c/two", "tree/z.txt"]),
            (["*/two"], ["tree/a/three", "tree/b/one", "tree/z.txt"]),
        ] as [([String], [String])])
    func excludedEntriesAreLeftOut(patterns: [String], files: [String]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = try Self.makeTree(in: directory)
        #expect(try SourceTree.walk(root, excluding: patterns).files.map(\.relativePath) == files)
    }

    /// A pattern is read in its bytes, as `fnmatch` reads it: a leading `/` anchors it even before a combining
    /// mark (read in characters, `/` and the mark were one character, and the pattern matched nothing).
    @Test(
        arguments: [
            ("/\u{301}x", "\u{301}x", FNM_PATHNAME), ("./\u{301}x", "\u{301}x", FNM_PATHNAME),
            ("//./a", "a", FNM_PATHNAME), ("a/\u{301}", "a/\u{301}", 0), ("*.log", "*.log", 0), ("", "", 0),
        ] as [(String, String, Int32)])
    func aPatternIsAnchoredByItsBytes(pattern: String, matched: String, flags: Int32) {
        let exclusion = SourceTree.Walk.exclusion(pattern)
        #expect([exclusion.pattern, String(exclusion.flags)] == [matched, String(flags)])
    }

    /// A path's components are split at its `/` bytes, empty ones kept, a `/` before a combining mark included.
    @Test(
        arguments: [
            ("a/b", ["a", "b"]), ("a//b/", ["a", "", "b", ""]), ("", [""]), ("/", ["", ""]),
            ("d/\u{301}e/f", ["d", "\u{301}e", "f"]), ("été/x", ["été", "x"]),
        ])
    func aPathIsSplitAtItsSeparatorBytes(path: String, components: [String]) {
        #expect(FileName.components(of: path) == components)
    }

    /// Issue 23: a tree 100 levels deep with a file at the bottom, and 12,000 files in one directory, beyond
    /// the old bounds (32 levels, 10,000 entries), are read whole; the walk enters and leaves every directory
    /// in order, holding one open directory a level.
    @Test func aDeepAndAWideTreeAreReadWithoutABound() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = try directory.directory("deep")
        let levels = (1...100).map { "d\($0)" }
        _ = try directory.directory("deep/" + levels.joined(separator: "/"))
        try write([7], to: root + "/" + levels.joined(separator: "/") + "/bottom")
        var walk = try SourceTree.Walk(root)
        var entries: [SourceTree.Entry] = []
        while let entry = walk.next() { entries.append(entry) }
        let paths = (0...100).map { ["deep"] + levels.prefix($0) }
        let expected: [String] =
            paths.map { "enter \($0.joined(separator: "/"))" }
            + ["file deep/\(levels.joined(separator: "/"))/bottom"]
            + paths.reversed().map { "leave \($0.joined(separator: "/"))" }
        #expect(entries.map(Self.summary) == expected)

        let wide = try directory.directory("wide")
        // Empty files made with one call each (the test runs on a thread of the shared pool: kept short).
        for index in 0..<10_500 {
            let descriptor = open(wide + "/f\(index)", O_WRONLY | O_CREAT | O_EXCL, 0o600)
            try #require(descriptor >= 0)
            close(descriptor)
        }
        let tree = try SourceTree.walk(wide)
        #expect(tree.files.count == 10_500)
        #expect(Set(tree.files.map(\.name)) == Set((0..<10_500).map { "f\($0)" }))
    }

    /// A directory the walk may not open (`b`) or list (`a`), and an entry whose status it cannot read
    /// (`z.txt`), fail alone: the walk goes on past each, as `cp -a` and `rsync -a` do (before: the first one
    /// ended the walk, and every entry after it in the tree was never copied nor named).
    @Test func anUnreadableEntryFailsAloneAndTheWalkGoesOn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = try Self.makeTree(in: directory)
        var fileSystem = FileSystem.posix
        let posix = FileSystem.posix
        let aDescriptor = Locked<Int32?>(nil)
        fileSystem.calls.openAt = { parent, name, flags, mode throws(Errno) in
            guard name != "b" else { throw .permissionDenied }
            let opened = try posix.openAt(parent, name, flags, mode)
            if name == "a" { aDescriptor.withLock { $0 = opened } }
            return opened
        }
        fileSystem.calls.entriesAt = { descriptor, limit throws(Errno) in
            // `a`'s descriptor once: the number is used again after it is closed.
            let listsA = aDescriptor.withLock { held in
                defer { if held == descriptor { held = nil } }
                return held == descriptor
            }
            if listsA { throw .ioError }
            return try posix.entriesAt(descriptor, limit)
        }
        fileSystem.calls.statusAt = { parent, name throws(Errno) in
            guard name != "z.txt" else { throw .permissionDenied }
            return try posix.statusAt(parent, name)
        }
        var walk = try SourceTree.Walk(root, fileSystem: fileSystem)
        var entries: [String] = []
        var failures: [String] = []
        while let entry = walk.next() {
            entries.append(Self.summary(entry))
            if case .unreadable(let entry) = entry { failures.append(entry.description) }
        }
        #expect(
            entries == [
                "enter tree", "unreadable tree/a", "unreadable tree/b", "enter tree/empty", "leave tree/empty",
                "as is tree/fifo", "as is tree/linked-dir", "unreadable tree/z.txt", "leave tree",
            ])
        #expect(
            failures == [
                "cannot read \(root)/a: Input/output error", "cannot read \(root)/b: Permission denied",
                "cannot read \(root)/z.txt: Permission denied",
            ])
    }

    /// A bind mount can put the destination, or a directory the walk is inside, below a tree (`mount --bind
    /// src/backup DEST`): before, the copy then read its own output and made the tree deeper without end, writing
    /// into the source (as `cp -a` refuses: "cannot copy a directory, 'src', into itself"). Such a directory is
    /// not read, its refusal says why, and the walk goes on beside it.
    @Test(arguments: [true, false])
    func aDirectoryThatIsTheDestinationOrAnAncestorIsNotRead(mountsTheDestination: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = try directory.directory("tree")
        _ = try directory.directory("tree/sub/mount")
        try write([1], to: root + "/sub/mount/inside")
        try write([2], to: root + "/sub/beside")
        let destination = try directory.directory("destination")
        let posix = FileSystem.posix
        var fileSystem = posix
        let mount = Locked<Int32?>(nil)
        fileSystem.calls.openAt = { parent, name, flags, mode throws(Errno) in
            let opened = try posix.openAt(parent, name, flags, mode)
            if name == "mount" { mount.withLock { $0 = opened } }
            return opened
        }
        // What `mount` is on disk once bound: the destination, or the tree's root above it.
        let bound = try posix.statusOfPath(mountsTheDestination ? destination : root + "/").identity
        fileSystem.calls.status = { descriptor throws(Errno) in
            var status = try posix.status(descriptor)
            if mount.withLock({ $0 == descriptor }) { status.identity = bound }
            return status
        }
        var walk = try SourceTree.Walk(
            root,
            destination: SourceTree.Destination(path: "backup", identity: try posix.statusOfPath(destination).identity),
            fileSystem: fileSystem)
        var entries: [String] = []
        var refusals: [String] = []
        while let entry = walk.next() {
            entries.append(Self.summary(entry))
            if case .unreadable(let entry) = entry { refusals.append(entry.description) }
        }
        #expect(
            entries == [
                "enter tree", "enter tree/sub", "file tree/sub/beside", "unreadable tree/sub/mount", "leave tree/sub",
                "leave tree",
            ])
        let expected =
            mountsTheDestination
            ? "cannot copy \(root)/sub/mount: it is the destination directory backup (a bind mount?): a directory is "
                + "never copied into itself"
            : "cannot copy \(root)/sub/mount: it is \(root) again (a bind mount of a directory inside itself): a "
                + "loop would never end"
        #expect(refusals == [expected])
    }

    /// One line per walk entry, for comparing a walk as a whole.
    static func summary(_ entry: SourceTree.Entry) -> String {
        switch entry {
        case .directory(let components, _): "enter " + components.joined(separator: "/")
        case .file(let file): "file " + file.relativePath
        case .asIs(let entry): "as is " + (entry.directory + [entry.name]).joined(separator: "/")
        case .skipped(let skipped): "skip " + skipped.path
        case .unreadable(let entry): "unreadable " + entry.components.joined(separator: "/")
        case .leave(let components): "leave " + components.joined(separator: "/")
        }
    }

    /// Issue 23: names that are not UTF-8 (a lone 0xFF, a truncated sequence, a Latin-1 é) are read as
    /// they are, not left out as "vanished": each name turns back into its very bytes, and the files and
    /// directories they name can be opened by them.
    @Test func namesThatAreNotUTF8AreReadByteForByte() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = try directory.directory("tree")
        let names: [[UInt8]] = [
            Array("bad".utf8) + [0xFF] + Array("name".utf8), [0xE2, 0x82], [0x63, 0x61, 0x66, 0xE9],
        ]
        for name in names {
            let path = Array(root.utf8) + [UInt8(ascii: "/")] + name
            let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_CREAT | O_WRONLY, 0o600) }
            }
            #expect(descriptor >= 0)
            close(descriptor)
        }
        let subdirectory = Array(root.utf8) + Array("/dir".utf8) + [0xFE]
        #expect(
            (subdirectory + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o700) }
            } == 0)
        let tree = try SourceTree.walk(root)
        #expect(tree.skipped == [])
        #expect(Set(tree.files.map { FileName.bytes($0.name) }) == Set(names))
        #expect(
            tree.directories.map { $0.map(FileName.bytes) } == [
                [Array("tree".utf8)], [Array("tree".utf8), Array("dir".utf8) + [0xFE]],
            ])
        for file in tree.files {
            #expect(try FileSystem.posix.statusOfPath(file.source).kind == .regularFile)
        }
    }

    @Test func aSubdirectoryIsCreatedOnceAndReopenedButAPlantedLinkIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = try DestinationDirectory(path: try directory.directory("out"))
        let victim = try directory.directory("victim")
        let made = try destination.subdirectory("tree")
        #expect(made.path == destination.path + "/tree")
        #expect(try destination.subdirectory("tree").path == made.path)
        #expect(try destination.status(of: "tree")?.isDirectory == true)

        try FileManager.default.createSymbolicLink(atPath: destination.path + "/planted", withDestinationPath: victim)
        #expect(
            throws: TransferError.unsafeEntry(
                path: destination.path + "/planted", detail: "it is a symbolic link, which the copy never follows")
        ) {
            try destination.subdirectory("planted")
        }
        try write([1], to: destination.path + "/file")
        #expect(throws: TransferError.unsafeEntry(path: destination.path + "/file", detail: "it is not a directory")) {
            try destination.subdirectory("file")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim) == [])
    }

    @Test func aJournalIsRemovedOnlyOnceNothingIsLeftToRecover() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = try directory.directory("out")
        let journal = try CopyJournal(directory: destination)
        let digest = SHA256.hash([1])
        try journal.append(
            .intent(
                name: "a", request: "1", source: "/src/a",
                sourceStatus: FileStatus(size: 1, modifiedNanoseconds: 1, isDirectory: false, isRegularFile: true),
                replaces: nil))
        try journal.append(.cancelled(name: "b"))
        #expect(try journal.removeIfSettled() == false)
        #expect(exists(destination + "/" + CopyJournal.fileName))
        try journal.append(.completed(name: "a", size: 1, digest: digest))
        #expect(try journal.removeIfSettled() == true)
        #expect(!exists(destination + "/" + CopyJournal.fileName))
    }

    /// A journal in a new destination under `directory`, holding an intent for each of `names` (its request the
    /// name, its source `/src/NAME`, of `status`): where the tests of forgetting and condensing entries start.
    static func journal(intending names: [String], in directory: TemporaryDirectory) throws -> (
        journal: CopyJournal, destination: String, status: FileStatus
    ) {
        let destination = try directory.directory("out")
        let journal = try CopyJournal(directory: destination)
        let status = FileStatus(size: 1, modifiedNanoseconds: 1, isDirectory: false, isRegularFile: true)
        for name in names {
            try journal.append(
                .intent(name: name, request: name, source: "/src/" + name, sourceStatus: status, replaces: nil))
        }
        return (journal, destination, status)
    }

    @Test func aSettledEntryIsForgottenInMemoryButKeptInTheFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (journal, destination, status) = try Self.journal(intending: ["a", "b", "c"], in: directory)
        try journal.append(.completed(name: "a", size: 1, digest: SHA256.hash([1])))
        try journal.append(.failed(name: "b", reason: "no room"))
        // Only the completed one goes: a failed or unfinished transfer is still to recover, as each answer says.
        #expect(["a", "b", "c"].map { journal.forgetSettled(named: $0) } == [false, true, true])
        #expect(
            journal.entries == [
                "b": JournalEntry(
                    request: "b", source: "/src/b", sourceStatus: status, durableOffset: 0,
                    status: .failed(reason: "no room"), ownedDigest: nil),
                "c": JournalEntry(
                    request: "c", source: "/src/c", sourceStatus: status, durableOffset: 0, status: .inProgress,
                    ownedDigest: nil),
            ])
        #expect(try journal.removeIfSettled() == false)
        // The file still has every record, for a later run.
        let file = try Data(contentsOf: URL(fileURLWithPath: destination + "/" + CopyJournal.fileName))
        #expect(Set(CopyJournal.replay(Array(file)).entries.keys) == ["a", "b", "c"])
    }

    /// Once every entry is condensed or forgotten, the journal's tables of whole entries keep no room: before, a
    /// shard's table shrank to a quarter of its room at most and kept room for its last few entries (the 16 shards
    /// of a copy dashboard's journal held 247 KB for no entry once 5,000 files completed; issue 23, item 6).
    @Test(arguments: [1, 20, 300])
    func aJournalWhoseEntriesAreAllCondensedKeepsNoRoomForWholeOnes(files: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let names = (0..<files).map { "f\($0)" }
        let (journal, _, _) = try Self.journal(intending: names, in: directory)
        #expect(journal.wholeEntryCapacity >= files)
        for (index, name) in names.enumerated() {
            try journal.append(.completed(name: name, size: 1, digest: SHA256.hash([UInt8(truncatingIfNeeded: index)])))
            if index % 2 == 0 {
                journal.condenseCompleted(named: name)
            } else {
                journal.forgetSettled(named: name)
            }
        }
        #expect(journal.wholeEntryCapacity == 0)
        #expect(journal.entries.count == (files + 1) / 2)
    }

    /// A completed entry condensed (the copy dashboard's completed rows) keeps the size and digest it wrote and
    /// reads as completed and owned, with no source; any other entry is left whole. A record about the name
    /// applies to it as it reads (a new intent carries the owned digest on), and the journal is settled as before.
    @Test func aCompletedEntryIsCondensedToTheFileItWrote() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (journal, _, status) = try Self.journal(intending: ["a", "b"], in: directory)
        let digest = SHA256.hash([1])
        try journal.append(.completed(name: "a", size: 1, digest: digest))
        for name in ["a", "b", "c"] { journal.condenseCompleted(named: name) }
        let condensed = JournalEntry(
            request: "", source: "", sourceStatus: nil, durableOffset: 1, status: .completed(size: 1, digest: digest),
            ownedDigest: digest)
        let unfinished = JournalEntry(
            request: "b", source: "/src/b", sourceStatus: status, durableOffset: 0, status: .inProgress,
            ownedDigest: nil)
        #expect(journal.entries == ["a": condensed, "b": unfinished])
        #expect(journal.entry(named: "a") == condensed)
        #expect(try journal.removeIfSettled() == false)

        try journal.append(
            .intent(name: "a", request: "a", source: "/src/a", sourceStatus: status, replaces: nil))
        #expect(
            journal.entry(named: "a")
                == JournalEntry(
                    request: "a", source: "/src/a", sourceStatus: status, durableOffset: 0, status: .inProgress,
                    ownedDigest: digest))
        try journal.append(.completed(name: "a", size: 1, digest: digest))
        journal.condenseCompleted(named: "a")
        try journal.append(.cancelled(name: "b"))
        journal.forgetSettled(named: "a")
        #expect(
            journal.entries == [
                "b": JournalEntry(
                    request: "b", source: "/src/b", sourceStatus: status, durableOffset: 0, status: .cancelled,
                    ownedDigest: nil)
            ])
        #expect(try journal.removeIfSettled() == true)
    }

    @Test func aDestinationFileIdenticalToItsSourceCountsAsCompleteWithoutAJournal() async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        try write(fixture.content, to: fixture.finalPath)
        // Another modification time than the source's, so the content decides (same size and time would
        // skip the file unread, like rsync: RerunTests).
        try setModificationTime(of: fixture.finalPath, seconds: 1_000)
        let before = try #require(
            FileManager.default.attributesOfItem(atPath: fixture.finalPath)[.systemFileNumber] as? Int)
        let outcome = try await fixture.job().run()
        #expect(outcome == .alreadyComplete(fixture.committed))
        #expect(
            try FileManager.default.attributesOfItem(atPath: fixture.finalPath)[.systemFileNumber] as? Int == before)
        // Different bytes of the same size are still refused.
        try write(pattern(count: fixture.content.count, seed: 99), to: fixture.finalPath)
        try setModificationTime(of: fixture.finalPath, seconds: 1_000)
        await #expect(throws: TransferError.destinationExists(path: fixture.finalPath)) {
            try await fixture.job().run()
        }
        #expect(!exists(fixture.partialPath))
    }
}
