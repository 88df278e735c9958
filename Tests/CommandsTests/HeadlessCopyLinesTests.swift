import FileTransfer
import Foundation
import MachineDrivers
import StateMachineKit
import Support
import Testing

@testable import Commands

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 23's headless lines for what a tree copy does besides copying files: a file a rerun skips says only
/// that (before: `running(…)` lines first), and symbolic and hard links get a line of their own and count in
/// the summary (before: made silently, counted nowhere).
@Suite struct HeadlessCopyLinesTests {
    /// Standard output and standard error of a headless copy, in memory.
    final class Output: @unchecked Sendable {
        var output = ""
        var error = ""
        var io: CommandIO {
            CommandIO(
                readInputLine: { nil }, readFile: { _ in .failure(CommandIO.ReadError("no such file")) },
                writeOutput: { [self] in output += $0 }, writeError: { [self] in error += $0 })
        }
    }

    /// A tree `t` in a fresh directory: `a.txt`, `b.txt` a hard link to it, `link` a symbolic link to it; and an
    /// empty destination `out`.
    private static func makeTree() throws -> String {
        let root = NSTemporaryDirectory() + "statetui-headless-links-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/t", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/out", withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: URL(fileURLWithPath: root + "/t/a.txt"))
        try #require(link(root + "/t/a.txt", root + "/t/b.txt") == 0)
        try #require(symlink("a.txt", root + "/t/link") == 0)
        return root
    }

    /// One headless run of `sources` (by default `t`) into `out`, on a clock that stands still (no total line,
    /// `in 0 s`); its thread of its own, since the run blocks while it waits. `failedEntries` counts the links
    /// and directories the session could not make, which the command turns into exit 1.
    private static func copy(_ root: String, sources: [String]? = nil)
        async throws -> (status: Int32, output: String, error: String, failedEntries: Int)
    {
        // The session is used by the thread that made it (it is not `Sendable`).
        let run = await DetachedThread.value(name: "statetui copy") {
            () -> Result<(Int32, String, String, Int), CopySessionError> in
            let captured = Output()
            do throws(CopySessionError) {
                let session = try CopySession(
                    sources: sources ?? [root + "/t"], destinationDirectory: root + "/out", overwrite: false,
                    options: CopyOptions())
                let status = HeadlessCopy.run(session, io: captured.io, clock: TestClock())
                return .success((status, captured.output, captured.error, session.failedEntries))
            } catch {
                return .failure(error)
            }
        }
        return try run.get()
    }

    @Test func linksGetALineEachAndCountInTheSummary() async throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let first = try await Self.copy(root)
        #expect(first.status == 0)
        #expect(first.error == "")
        // Running lines depend on when the run looks; every other line is fixed.
        let settled = first.output.split(separator: "\n").filter { !$0.contains(": running(") }
        #expect(
            settled == [
                "t/link: linked -> a.txt", "t/a.txt: completed(file: \"\(root)/out/t/a.txt\")",
                "t/b.txt: hard link to t/a.txt", "copied 1 file (5 B), linked 2, skipped 0, failed 0 in 0 s",
            ])
        var status = stat()
        #expect(lstat(root + "/out/t/link", &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        #expect(stat(root + "/out/t/b.txt", &status) == 0 && status.st_nlink == 2)
    }

    /// Hard links between sources stay one file, as with `cp -a`: a name of `t/a.txt` in a second tree and
    /// one named on the command line become hard links to its copy (before: each source's files were told apart
    /// alone, so both were copied as files of their own), and a rerun skips them.
    @Test func hardLinksAcrossSourcesStayOneFile() async throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/u", withIntermediateDirectories: true)
        try #require(link(root + "/t/a.txt", root + "/u/c.txt") == 0)
        try #require(link(root + "/t/a.txt", root + "/v.txt") == 0)
        let sources = [root + "/t", root + "/u", root + "/v.txt"]
        let first = try await Self.copy(root, sources: sources)
        #expect(first.status == 0)
        #expect(first.error == "")
        #expect(
            first.output.split(separator: "\n").filter { !$0.contains(": running(") } == [
                "t/link: linked -> a.txt", "t/a.txt: completed(file: \"\(root)/out/t/a.txt\")",
                "t/b.txt: hard link to t/a.txt", "u/c.txt: hard link to t/a.txt", "v.txt: hard link to t/a.txt",
                "copied 1 file (5 B), linked 4, skipped 0, failed 0 in 0 s",
            ])
        var copy = stat()
        #expect(stat(root + "/out/t/a.txt", &copy) == 0 && copy.st_nlink == 4)
        for name in ["t/b.txt", "u/c.txt", "v.txt"] {
            var other = stat()
            #expect(stat(root + "/out/" + name, &other) == 0 && other.st_ino == copy.st_ino)
        }
        let rerun = try await Self.copy(root, sources: sources)
        #expect(
            rerun == (
                0,
                """
                t/link: skipped (same link)
                t/a.txt: skipped (same size and time)
                t/b.txt: skipped (already a hard link to t/a.txt)
                u/c.txt: skipped (already a hard link to t/a.txt)
                v.txt: skipped (already a hard link to t/a.txt)
                copied 0 files (0 B), skipped 5, failed 0 in 0 s

                """, "", 0
            ))
    }

    /// A second name is linked only to a copy that completed: when the first name's copy is refused (another
    /// file is there), the second name is not made a hard link to that other file, which would hold other bytes
    /// than its source (before: `t/b.txt: hard link to t/a.txt`, and `out/t/b.txt` held the other file's bytes).
    @Test func aSecondNameIsNotLinkedToAFileWhoseCopyDidNotComplete() async throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/out/t", withIntermediateDirectories: true)
        // Another size than the source's (`hello`), so the run cannot take it for an unchanged copy.
        try Data("another file".utf8).write(to: URL(fileURLWithPath: root + "/out/t/a.txt"))
        let run = try await Self.copy(root)
        #expect(run.status == 1)
        let refusal =
            "statetui: refusing to use \(root)/out/t/a.txt: it is not a copy of its source (its copy did not "
            + "complete), so \(root)/out/t/b.txt is not made a hard link to it"
        #expect(run.error.split(separator: "\n").map(String.init).contains(refusal), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: root + "/out/t/b.txt"))
        #expect(FileManager.default.contents(atPath: root + "/out/t/a.txt") == Data("another file".utf8))
        #expect(run.output.hasSuffix("copied 0 files (0 B), linked 1, skipped 0, failed 2 in 0 s\n"))
    }

    /// A directory where a symbolic link goes is refused for what it is, as for a file: before, the refusal said
    /// to use `--overwrite`, which never replaces a directory either.
    @Test func aDirectoryWhereALinkGoesIsRefusedForWhatItIs() async throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/out/t/link", withIntermediateDirectories: true)
        let run = try await Self.copy(root)
        // Every file was copied; the failed link is the command's exit 1 (`failedEntries`).
        #expect(run.status == 0)
        #expect(
            run.error.split(separator: "\n").map(String.init).contains(
                "statetui: refusing to use \(root)/out/t/link: it is a directory, which a copy never replaces"),
            "\(run)")
        #expect(run.failedEntries == 1)
    }

    @Test func aRerunPrintsOnlyWhatItSkipped() async throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try await Self.copy(root)
        let rerun = try await Self.copy(root)
        #expect(rerun.status == 0)
        #expect(
            rerun.output == """
                t/link: skipped (same link)
                t/a.txt: skipped (same size and time)
                t/b.txt: skipped (already a hard link to t/a.txt)
                copied 0 files (0 B), skipped 3, failed 0 in 0 s

                """)
    }

    /// A symbolic link named on the command line is copied as a link, as `cp -a` and `rsync -a` do (before: a
    /// link to a file was followed and its content copied, one to a directory failed with "it is a directory,
    /// not a regular file"); a rerun skips it, and the link itself as the destination is refused.
    @Test func linksNamedOnTheCommandLineAreCopiedAsLinks() async throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try #require(symlink("t", root + "/tree") == 0)
        let sources = [root + "/t/link", root + "/tree"]
        let first = try await Self.copy(root, sources: sources)
        #expect(
            first == (
                0,
                "link: linked -> a.txt\ntree: linked -> t\ncopied 0 files (0 B), linked 2, skipped 0, failed 0 in 0 s\n",
                "", 0
            ))
        var status = stat()
        for name in ["link", "tree"] {
            #expect(lstat(root + "/out/" + name, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        }
        let rerun = try await Self.copy(root, sources: sources)
        #expect(
            rerun == (
                0,
                "link: skipped (same link)\ntree: skipped (same link)\ncopied 0 files (0 B), skipped 2, failed 0 in 0 s\n",
                "", 0
            ))
        let ontoItself = try await Self.copy(root, sources: [root + "/out/link"])
        #expect(
            ontoItself == (
                0, "copied 0 files (0 B), skipped 0, failed 1 in 0 s\n",
                "statetui: \(root)/out/link and \(root)/out/link are the same file\n", 1
            ))
    }

    /// FIFOs, sockets and devices are made like their sources, as `cp -a` and `rsync -a` make them (before:
    /// skipped with a line on standard error, exit 0, the entry missing from the copy): never opened, with the
    /// source's mode and times (and owner, as root); a device stands for the same device and needs privilege, as
    /// with `cp -a`. A rerun skips what is there, and anything else under the name is refused without
    /// `--overwrite` (a failed entry, which the command turns into exit 1).
    @Test func fifosSocketsAndDevicesAreMadeLikeTheirSources() async throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/s", withIntermediateDirectories: true)
        try #require(mkfifo(root + "/s/pipe", 0o640) == 0)
        try #require(mknod(root + "/s/sock", S_IFSOCK | 0o600, 0) == 0)
        try #require(chmod(root + "/s/pipe", 0o640) == 0)
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 5), timespec(tv_sec: 1_000_000_000, tv_nsec: 7)]
        try #require(utimensat(AT_FDCWD, root + "/s/pipe", &times, 0) == 0)
        let sources = [root + "/s", "/dev/null"]
        let first = try await Self.copy(root, sources: sources)
        let device =
            geteuid() == 0
            ? (line: "null: made (character device 1:3)\n", made: 3, failed: 0, error: "")
            : (
                line: "", made: 2, failed: 1,
                error: "statetui: cannot create the character device 1:3 \(root)/out/null: Operation not permitted\n"
            )
        #expect(
            first == (
                0,
                "s/pipe: made (FIFO)\ns/sock: made (socket)\n" + device.line
                    + "copied 0 files (0 B), made \(device.made) special files, skipped 0, failed \(device.failed) in 0 s\n",
                device.error, device.failed
            ))
        for (source, copy) in [("s/pipe", "s/pipe"), ("s/sock", "s/sock")] + (geteuid() == 0 ? [("", "null")] : []) {
            var original = stat()
            var made = stat()
            #expect(lstat(source.isEmpty ? "/dev/null" : root + "/" + source, &original) == 0)
            #expect(lstat(root + "/out/" + copy, &made) == 0)
            #expect(
                [made.st_mode, mode_t(made.st_rdev), mode_t(made.st_mtim.tv_sec), mode_t(made.st_mtim.tv_nsec)]
                    == [
                        original.st_mode, mode_t(original.st_rdev), mode_t(original.st_mtim.tv_sec),
                        mode_t(original.st_mtim.tv_nsec),
                    ], "\(copy)")
        }
        let rerun = try await Self.copy(root, sources: [root + "/s"])
        #expect(
            rerun == (
                0,
                "s/pipe: skipped (same FIFO)\ns/sock: skipped (same socket)\ncopied 0 files (0 B), skipped 2, failed 0 in 0 s\n",
                "", 0
            ))
        try #require(unlink(root + "/out/s/pipe") == 0)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: root + "/out/s/pipe"))
        let refused = try await Self.copy(root, sources: [root + "/s"])
        #expect(
            refused == (
                0, "s/sock: skipped (same socket)\ncopied 0 files (0 B), skipped 1, failed 1 in 0 s\n",
                "statetui: \(root)/out/s/pipe already exists and was not written by this copy (use --overwrite to "
                    + "replace it)\n", 1
            ))
        #expect(FileManager.default.contents(atPath: root + "/out/s/pipe") == Data("mine".utf8))
    }

    /// Names of one FIFO, and of one symbolic link, stay one entry, as `cp -a` keeps them (before: each name was
    /// made an entry of its own): the first met is made (the walk goes depth first, names in byte order), a
    /// later name is a hard link to it at once, and a rerun skips both.
    @Test func hardLinksBetweenFifosAndBetweenSymbolicLinksStayOneEntry() async throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/s/sub", withIntermediateDirectories: true)
        try #require(mkfifo(root + "/s/pipe", 0o600) == 0)
        try #require(link(root + "/s/pipe", root + "/s/sub/pipe2") == 0)
        try #require(symlink("pipe", root + "/s/to-pipe") == 0)
        try #require(link(root + "/s/to-pipe", root + "/s/sub/to-pipe2") == 0)
        let first = try await Self.copy(root, sources: [root + "/s"])
        #expect(
            first == (
                0,
                """
                s/pipe: made (FIFO)
                s/sub/pipe2: hard link to s/pipe
                s/sub/to-pipe2: linked -> pipe
                s/to-pipe: hard link to s/sub/to-pipe2
                copied 0 files (0 B), linked 3, made 1 special file, skipped 0, failed 0 in 0 s

                """, "", 0
            ))
        for (name, other) in [("s/pipe", "s/sub/pipe2"), ("s/to-pipe", "s/sub/to-pipe2")] {
            var one = stat()
            var two = stat()
            #expect(lstat(root + "/out/" + name, &one) == 0 && lstat(root + "/out/" + other, &two) == 0)
            #expect([one.st_ino, UInt(one.st_nlink)] == [two.st_ino, 2], "\(name)")
        }
        let rerun = try await Self.copy(root, sources: [root + "/s"])
        #expect(
            rerun == (
                0,
                """
                s/pipe: skipped (same FIFO)
                s/sub/pipe2: skipped (already a hard link to s/pipe)
                s/sub/to-pipe2: skipped (same link)
                s/to-pipe: skipped (already a hard link to s/sub/to-pipe2)
                copied 0 files (0 B), skipped 4, failed 0 in 0 s

                """, "", 0
            ))
    }

    /// A link, FIFO or directory of a source under a name the copy keeps for itself (its journal's, a partial's)
    /// is refused, as a file of that name is, a directory with everything below it (before: a link or directory
    /// named `.statetui-journal` was made first, so the directory's journal could not be opened and every file
    /// beside it failed, on every rerun; with `--overwrite` a link could replace the journal in use).
    @Test func entriesUnderTheCopysOwnNamesAreRefused() async throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/r", withIntermediateDirectories: true)
        try Data("kept".utf8).write(to: URL(fileURLWithPath: root + "/r/a.txt"))
        try #require(symlink("a.txt", root + "/r/.statetui-journal") == 0)
        try #require(mkfifo(root + "/r/.statetui-partial.0123", 0o600) == 0)
        try FileManager.default.createDirectory(
            atPath: root + "/r/.statetui-partial.dir", withIntermediateDirectories: true)
        try Data("below".utf8).write(to: URL(fileURLWithPath: root + "/r/.statetui-partial.dir/b.txt"))
        let run = try await Self.copy(root, sources: [root + "/r"])
        let refused = "the name is reserved for the copy's journal and partial files"
        let settled: [String] = run.output.split(separator: "\n").filter { !$0.contains(": running(") }.map(String.init)
        let expectedOutput: [String] = [
            "r/a.txt: completed(file: \"\(root)/out/r/a.txt\")", "copied 1 file (4 B), skipped 0, failed 3 in 0 s",
        ]
        let expectedError: String =
            "statetui: refusing to use \(root)/out/r/.statetui-journal: \(refused)\n"
            + "statetui: refusing to use \(root)/out/r/.statetui-partial.0123: \(refused)\n"
            + "statetui: refusing to use \(root)/out/r/.statetui-partial.dir: \(refused)\n"
        #expect(settled == expectedOutput)
        #expect(run.error == expectedError)
        #expect(run.failedEntries == 3)
        #expect(!FileManager.default.fileExists(atPath: root + "/out/r/.statetui-partial.dir"))
        #expect(FileManager.default.contents(atPath: root + "/out/r/a.txt") == Data("kept".utf8))
    }
}
