import Foundation
import Testing

@testable import FileTransfer

/// `--dry-run`: what the copy would do, decided by reading only.
@Suite struct CopyPreviewTests {
    /// A tree copied before, then one file changed and one added: the preview names each fate, and the
    /// destination is exactly as it was (no directory, no journal, no partial).
    @Test(arguments: [false, true])
    func aPreviewSaysWhatWouldHappenAndWritesNothing(overwrite: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let tree = try directory.directory("src/tree")
        let destination = try directory.directory("out")
        _ = try directory.directory("out/tree")
        for name in ["same", "changed"] {
            try write(pattern(count: 100), to: tree + "/" + name)
            try write(pattern(count: 100), to: destination + "/tree/" + name)
            try setModificationTime(of: tree + "/" + name, seconds: 1_000)
            try setModificationTime(of: destination + "/tree/" + name, seconds: 1_000)
        }
        try write(pattern(count: 100, seed: 9), to: tree + "/changed")
        try setModificationTime(of: tree + "/changed", seconds: 2_000)
        _ = try directory.directory("src/tree/new")
        try write([1], to: tree + "/new/file")
        let before = try FileManager.default.subpathsOfDirectory(atPath: destination).sorted()

        let preview = try CopyPreview(
            sources: [tree], destinationDirectory: destination, overwrite: overwrite, comparesContent: false)

        #expect(
            preview.entries.map(\.description) == [
                "would create directory tree/new",
                overwrite
                    ? "would replace tree/changed"
                    : "would fail tree/changed: it exists and differs (use --overwrite to replace it)",
                "would copy tree/new/file",
                "would skip tree/same (same size and time)",
            ])
        #expect(preview.hasFailures == !overwrite)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: destination).sorted() == before)
    }

    /// A copy the run would skip says so, and, when the run would bring its mode or times in line with its
    /// source (a file made private since its copy), says that too (before: only "same size and time"). A copy
    /// the run would copy anew rather than change in place, because another name shares its inode
    /// (``RerunTests/aSkippedCopySharedWithAnotherNameIsCopiedAnew(shared:)``), would be replaced (before: "would
    /// skip", while the run changed both names' mode).
    @Test(arguments: ["unchanged", "made private", "made private, its copy shared"])
    func aSkipSaysWhenTheCopysModeWouldBeSet(sourceAndCopy: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("key")
        let destination = try directory.directory("out")
        for path in [source, destination + "/key"] {
            try write(pattern(count: 10), to: path)
            #expect(chmod(path, 0o644) == 0)
            try setModificationTime(of: path, seconds: 1_000)
        }
        if sourceAndCopy != "unchanged" { #expect(chmod(source, 0o600) == 0) }
        if sourceAndCopy.hasSuffix("shared") { #expect(link(destination + "/key", destination + "/other") == 0) }

        let preview = try CopyPreview(
            sources: [source], destinationDirectory: destination, overwrite: false, comparesContent: false)

        let expected = [
            "unchanged": "would skip key (same size and time)",
            "made private":
                "would skip key (same size and time; its mode, owner or times would be set to the source's)",
            "made private, its copy shared": "would replace key",
        ]
        #expect(preview.entries.map(\.description) == [expected[sourceAndCopy]])
    }

    /// A directory of the tree whose place a file or a symbolic link takes in the destination would fail with
    /// everything below it, as the run fails it ("refusing to use …: it is not a directory"); before, the dry run
    /// said "would copy" for every file below it and exited 0.
    @Test(arguments: ["file", "link"]) func aDirectoryWhosePlaceIsTakenWouldFail(inTheWay: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let tree = try directory.directory("tree")
        _ = try directory.directory("tree/sub/deeper")
        try write([1], to: tree + "/sub/deeper/a")
        try write([2], to: tree + "/z")
        let destination = try directory.directory("out")
        _ = try directory.directory("out/tree")
        if inTheWay == "file" {
            try write([3], to: destination + "/tree/sub")
        } else {
            try #require(symlink("..", destination + "/tree/sub") == 0)
        }

        let preview = try CopyPreview(
            sources: [tree], destinationDirectory: destination, overwrite: true, comparesContent: false)

        #expect(
            preview.entries.map(\.description) == [
                "would fail tree/sub: "
                    + (inTheWay == "file"
                        ? "it is not a directory" : "it is a symbolic link, which the copy never follows"),
                "would copy tree/z",
            ])
        #expect(preview.hasFailures)
    }

    /// A symbolic link named on the command line would be copied as a link, whether it leads to a file or a
    /// directory (before: "would fail tree: it is a directory"); with a slash, the directory it leads to is the
    /// source.
    @Test func aLinkNamedOnTheCommandLineWouldBeLinked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let tree = try directory.directory("src/tree")
        try write([1], to: tree + "/file")
        try #require(symlink("tree", directory.path + "/src/to-tree") == 0)
        try #require(symlink("tree/file", directory.path + "/src/to-file") == 0)
        let destination = try directory.directory("out")

        let preview = try CopyPreview(
            sources: [
                directory.path + "/src/to-tree", directory.path + "/src/to-file", directory.path + "/src/to-tree/",
            ],
            destinationDirectory: destination, overwrite: false, comparesContent: false)

        #expect(
            preview.entries.map(\.description) == [
                "would link to-tree", "would link to-file", "would create directory to-tree",
                "would copy to-tree/file",
            ])
    }

    /// Hard links between sources would be kept, as `cp -a` keeps them: a name in a second tree or on the
    /// command line of a file met before would be linked (before: "would copy", as a file of its own).
    @Test func aFileNamedInTwoSourcesWouldBeCopiedOnceAndLinked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try directory.directory("src/first")
        let second = try directory.directory("src/second")
        try write([1, 2, 3], to: first + "/data")
        try #require(link(first + "/data", second + "/same") == 0)
        try #require(link(first + "/data", directory.path + "/src/loose") == 0)
        let destination = try directory.directory("out")

        let preview = try CopyPreview(
            sources: [first, second, directory.path + "/src/loose"], destinationDirectory: destination,
            overwrite: false, comparesContent: false)

        #expect(
            preview.entries.map(\.description) == [
                "would create directory first", "would copy first/data", "would create directory second",
                "would link second/same", "would link loose",
            ])
    }

    /// Over a destination a copy made, links are decided as the real run decides them: the same symbolic link,
    /// and a second name already linked to its file's copy, would be skipped; a link whose source now leads
    /// elsewhere, and a file there that is not the copy's second name, would fail without `--overwrite` (before:
    /// every link said "would link", though the run then skipped or refused it).
    @Test(arguments: [false, true])
    func linksAlreadyThereWouldBeSkippedAndOthersDecidedAsFiles(overwrite: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let tree = try directory.directory("src/tree")
        let copy = try directory.directory("out/tree")
        for root in [tree, copy] {
            try write([1, 2, 3], to: root + "/a")
            try setModificationTime(of: root + "/a", seconds: 1_000)
            try #require(symlink("a", root + "/same-link") == 0)
        }
        try #require(link(tree + "/a", tree + "/b") == 0)
        try #require(link(copy + "/a", copy + "/b") == 0)
        try #require(link(tree + "/a", tree + "/c") == 0)
        try write([1, 2, 3], to: copy + "/c")
        try #require(symlink("b", tree + "/moved-link") == 0)
        try #require(symlink("a", copy + "/moved-link") == 0)

        let preview = try CopyPreview(
            sources: [tree], destinationDirectory: directory.path + "/out", overwrite: overwrite,
            comparesContent: false)

        let differs = overwrite ? "would replace" : "would fail"
        let reason = overwrite ? "" : ": it exists and differs (use --overwrite to replace it)"
        #expect(
            preview.entries.map(\.description) == [
                "would skip tree/a (same size and time)", "would skip tree/b (already a hard link to tree/a)",
                "\(differs) tree/c\(reason)", "\(differs) tree/moved-link\(reason)",
                "would skip tree/same-link (same link)",
            ])
    }

    /// FIFOs, sockets and devices would be made as the real run makes them, like `cp -a` (before: left out of the
    /// preview, and of the copy): a new one said with its kind, a second name of it linked, one of the same kind
    /// already there skipped, a FIFO where a socket was decided as a file there, one under the journal's name
    /// refused.
    @Test func fifosSocketsAndDevicesWouldBeMadeWithTheirKind() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let tree = try directory.directory("src/tree")
        let copy = try directory.directory("out/tree")
        for name in ["new-pipe", "same-pipe", "socket-there", ".statetui-journal"] {
            try #require(mkfifo(tree + "/" + name, 0o600) == 0)
        }
        try #require(mknod(tree + "/socket", S_IFSOCK | 0o600, 0) == 0)
        try #require(link(tree + "/new-pipe", tree + "/new-pipe2") == 0)
        try #require(mkfifo(copy + "/same-pipe", 0o600) == 0)
        try #require(mknod(copy + "/socket-there", S_IFSOCK | 0o600, 0) == 0)

        let preview = try CopyPreview(
            sources: [tree, "/dev/null"], destinationDirectory: directory.path + "/out", overwrite: false,
            comparesContent: false)

        #expect(
            preview.entries.map(\.description) == [
                "would fail tree/.statetui-journal: the name is reserved for the copy's journal and partial files",
                "would make tree/new-pipe (FIFO)", "would link tree/new-pipe2", "would skip tree/same-pipe (same FIFO)",
                "would make tree/socket (socket)",
                "would fail tree/socket-there: it exists and differs (use --overwrite to replace it)",
                "would make null (character device 1:3)",
            ])
    }

    /// A directory under a name the copy keeps for itself would fail with everything below it, as the real run
    /// refuses it, and the files beside it would be copied.
    @Test func aDirectoryUnderAReservedNameWouldFailWithItsContents() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let tree = try directory.directory("src/tree")
        _ = try directory.directory("src/tree/.statetui-partial.dir/deeper")
        try write([1], to: tree + "/.statetui-partial.dir/deeper/x")
        try write([2], to: tree + "/a")
        _ = try directory.directory("out")

        let preview = try CopyPreview(
            sources: [tree], destinationDirectory: directory.path + "/out", overwrite: false, comparesContent: false)

        #expect(
            preview.entries.map(\.description) == [
                "would create directory tree",
                "would fail tree/.statetui-partial.dir: the name is reserved for the copy's journal and partial files",
                "would copy tree/a",
            ])
    }

    /// A second name of a file whose first name would not be copied would not be linked either: the real run
    /// links a name only to a copy that completed.
    @Test func aSecondNameOfAFileThatWouldNotBeCopiedWouldFail() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let tree = try directory.directory("src/tree")
        let copy = try directory.directory("out/tree")
        try write([1, 2, 3], to: tree + "/a")
        try #require(link(tree + "/a", tree + "/b") == 0)
        try write([9], to: copy + "/a")

        let preview = try CopyPreview(
            sources: [tree], destinationDirectory: directory.path + "/out", overwrite: false, comparesContent: false)

        #expect(
            preview.entries.map(\.description) == [
                "would fail tree/a: it exists and differs (use --overwrite to replace it)",
                "would fail tree/b: tree/a, the same file, would not be copied",
            ])
    }

    /// A destination an interrupted run left (killed mid-copy: partials and the journal's checkpoints): the
    /// preview says what a real run would do with each partial, resume it or replace it and why, and still
    /// writes nothing (before: the journal was not read, and each such file said only "would copy").
    @Test func aPreviewSaysWhatARunWouldDoWithAnInterruptedRunsPartials() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try directory.directory("src")
        let destination = try directory.directory("out")
        for (seed, name) in ["kept", "changed", "stray", "new"].enumerated() {
            try write(pattern(count: 1 << 20, seed: UInt64(seed + 1)), to: source + "/" + name)
            try setModificationTime(of: source + "/" + name, seconds: 1_000)
        }
        let chunk = 64 << 10
        do {
            let journal = try CopyJournal(directory: destination)
            for name in ["kept", "changed"] {
                let job = CopyJob(
                    request: CopyRequest(id: name, source: source + "/" + name, destinationDirectory: destination),
                    journal: journal, options: CopyOptions(chunkSize: chunk))
                #expect(try await runInterrupted(job, at: Int64(4 * chunk)) == .interrupted(offset: Int64(4 * chunk)))
            }
        }
        try write([1, 2, 3], to: destination + "/" + StagedFile.partialName(for: "stray"))
        try setModificationTime(of: source + "/changed", seconds: 2_000)
        let before = try Self.listing(destination)

        let preview = try CopyPreview(
            sources: ["kept", "changed", "stray", "new"].map { source + "/" + $0 }, destinationDirectory: destination,
            overwrite: false, comparesContent: false)

        #expect(
            preview.entries.map(\.description) == [
                "would resume kept at byte 262144 of 1048576 (the partial an interrupted run left)",
                "would copy changed from the start, replacing the partial an interrupted run left (its source "
                    + "changed since)",
                "would copy stray from the start, replacing the partial an interrupted run left (the journal has no "
                    + "record of it)",
                "would copy new",
            ])
        #expect(try Self.listing(destination) == before)
    }

    /// A file the preview cannot read for want of descriptors says what to do about it, as the copy's errors do.
    @Test func aPreviewThatRunsOutOfDescriptorsSaysToRaiseTheLimit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = try directory.directory("out")
        let source = directory.path + "/f"
        try write([1], to: source)
        var fileSystem = FileSystem.posix
        fileSystem.calls.statusOfPath = { path throws(Errno) in
            guard path != source else { throw .tooManyOpenFiles }
            return try FileSystem.posix.statusOfPath(path)
        }

        let preview = try CopyPreview(
            sources: [source], destinationDirectory: destination, overwrite: false, comparesContent: false,
            fileSystem: fileSystem)

        #expect(
            preview.entries.map(\.description) == [
                "would fail f: cannot read it: Too many open files (a copy keeps one open for each directory level on "
                    + "each side: raise the limit with ulimit -n)"
            ])
    }

    /// Every entry of `directory` with its size and modification time, and the journal's bytes.
    private static func listing(_ directory: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: directory).sorted().map { name in
            let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            return "\(name) \(attributes[.size] ?? "") \(attributes[.modificationDate] ?? "")"
        } + [String(decoding: contents(of: directory + "/" + CopyJournal.fileName) ?? [], as: UTF8.self)]
    }
}
