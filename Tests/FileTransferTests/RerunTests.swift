import Foundation
import Testing

@testable import FileTransfer

/// A file already at the destination, like rsync decides it: same size and time is the source's copy,
/// `comparesContent` looks at the bytes, `overwrite` replaces only what differs.
@Suite struct RerunTests {
    static func inode(of path: String) -> UInt64? {
        var raw = stat()
        return stat(path, &raw) == 0 ? UInt64(raw.st_ino) : nil
    }

    /// A destination with the source's size and modification time but other bytes (as after a rerun, the
    /// times being kept): skipped without reading either file, unless content is compared, which
    /// refuses it as a file this copy did not write.
    @Test(arguments: [false, true])
    func aFileWithTheSourcesSizeAndTimeIsSkippedUnlessContentIsCompared(comparesContent: Bool) async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        let other = pattern(count: fixture.content.count, seed: 99)
        try write(other, to: fixture.finalPath)
        try setModificationTime(of: fixture.source, seconds: 1_500_000_000)
        try setModificationTime(of: fixture.finalPath, seconds: 1_500_000_000)
        var options = fixture.options()
        options.comparesContent = comparesContent
        let job = fixture.job(options: options)
        if comparesContent {
            await #expect(throws: TransferError.destinationExists(path: fixture.finalPath)) { try await job.run() }
        } else {
            let outcome = try await job.run()
            #expect(
                outcome
                    == .alreadyComplete(
                        CommittedFile(path: fixture.finalPath, size: Int64(fixture.content.count), digest: nil)))
            #expect(fixture.sourceReads() == [])
        }
        #expect(contents(of: fixture.finalPath) == other)
    }

    /// `--overwrite` replaces a file that differs and leaves one that holds the source's bytes alone
    /// (the same inode, not rewritten).
    @Test(arguments: [false, true])
    func overwriteReplacesOnlyAFileThatDiffers(differs: Bool) async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        try write(differs ? pattern(count: fixture.content.count, seed: 5) : fixture.content, to: fixture.finalPath)
        try setModificationTime(of: fixture.finalPath, seconds: 1_000)
        let before = Self.inode(of: fixture.finalPath)
        let outcome = try await fixture.job(overwrite: true).run()
        #expect(outcome == (differs ? .completed(fixture.committed) : .alreadyComplete(fixture.committed)))
        #expect(contents(of: fixture.finalPath) == fixture.content)
        #expect((Self.inode(of: fixture.finalPath) == before) == !differs)
    }

    /// A copy a rerun skips gets its source's mode and time where they differ, as `rsync -a` does: a source
    /// made private since its last copy makes the copy private (before: the skipped copy stayed 0644 beside a
    /// 0600 source), and one skipped for its content gets the source's time, so the next rerun skips it
    /// unread. Both ways of skipping (size and time; content), the copy not rewritten (same inode).
    @Test(arguments: [false, true])
    func aSkippedCopyGetsItsSourcesModeAndTime(sameTime: Bool) async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        try write(fixture.content, to: fixture.finalPath)
        #expect(chmod(fixture.finalPath, 0o644) == 0)
        #expect(chmod(fixture.source, 0o600) == 0)
        try setModificationTime(of: fixture.source, seconds: 1_500_000_000)
        try setModificationTime(of: fixture.finalPath, seconds: sameTime ? 1_500_000_000 : 1_000)
        let before = Self.inode(of: fixture.finalPath)
        let outcome = try await fixture.job().run()
        let size = Int64(fixture.content.count)
        #expect(
            outcome
                == .alreadyComplete(
                    sameTime
                        ? CommittedFile(path: fixture.finalPath, size: size, digest: nil) : fixture.committed))
        #expect(try MetadataTests.modeAndTime(of: fixture.finalPath) == (0o600, 1_500_000_000))
        #expect(Self.inode(of: fixture.finalPath) == before)
        #expect(contents(of: fixture.finalPath) == fixture.content)
    }

    /// A copy that shares its inode with another name its source's file does not have (two files an earlier run
    /// copied as hard links, told apart in the source since) is copied anew rather than given its source's mode
    /// in place, with or without `--overwrite`: before, the rerun made the other name's mode change too (a
    /// private source left its copy `0644`, or its sibling's copy lost its own mode) and exited 0. The other
    /// name keeps the old inode and its metadata. Without other names (the argument false) it is skipped as
    /// before, in place.
    @Test(arguments: [true, false])
    func aSkippedCopySharedWithAnotherNameIsCopiedAnew(shared: Bool) async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        let sibling = fixture.finalPath + ".sibling"
        try write(fixture.content, to: fixture.finalPath)
        #expect(chmod(fixture.finalPath, 0o644) == 0)
        if shared { #expect(link(fixture.finalPath, sibling) == 0) }
        #expect(chmod(fixture.source, 0o600) == 0)
        try setModificationTime(of: fixture.source, seconds: 1_500_000_000)
        try setModificationTime(of: fixture.finalPath, seconds: 1_500_000_000)
        let before = Self.inode(of: fixture.finalPath)

        let outcome = try await fixture.job().run()

        let size = Int64(fixture.content.count)
        #expect(
            outcome
                == (shared
                    ? .completed(fixture.committed)
                    : .alreadyComplete(CommittedFile(path: fixture.finalPath, size: size, digest: nil))))
        #expect(try MetadataTests.modeAndTime(of: fixture.finalPath) == (0o600, 1_500_000_000))
        #expect((Self.inode(of: fixture.finalPath) == before) == !shared)
        #expect(contents(of: fixture.finalPath) == fixture.content)
        if shared {
            #expect(try MetadataTests.modeAndTime(of: sibling) == (0o644, 1_500_000_000))
            #expect(Self.inode(of: sibling) == before)
        }
    }

    /// A directory under the file's name is refused before a byte of the source is read, even with
    /// `--overwrite` (the rename at the end could only fail).
    @Test func aDirectoryWhereTheFileGoesIsRefusedBeforeCopying() async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        _ = try fixture.directory.directory("out/source.bin")
        await #expect(
            throws: TransferError.unsafeEntry(
                path: fixture.finalPath, detail: "it is a directory, which a file copy never replaces")
        ) { try await fixture.job(overwrite: true).run() }
        #expect(fixture.sourceReads() == [])
        #expect(
            TransferError.destinationExists(path: "/d/f").description
                == "/d/f already exists and was not written by this copy (use --overwrite to replace it)")
    }
}
