import Foundation
import Testing

@testable import FileTransfer

/// A tree deeper than one path may name (`PATH_MAX`, 4,096 bytes on Linux): `cp -a` copies a file and a symbolic
/// link at its bottom, and so does a copy (before: "cannot read …: File name too long", each left out).
@Suite struct LongPathTests {
    /// 24 directories of 200-byte names under `root`, made one `mkdirat` at a time (no one call takes their
    /// path), and `bottom` in the last of them holding `content`; returns the file's path (about 4,900 bytes). Long
    /// names rather than many levels: the tree costs a few descriptors however the test process is limited.
    static func deepFile(under root: String, content: [UInt8]) throws -> String {
        var directory = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(directory >= 0)
        var names: [String] = []
        for level in 0..<24 {
            let name = String(String(level + 100).dropFirst()) + String(repeating: "d", count: 198)
            try #require(mkdirat(directory, name, 0o755) == 0)
            let next = openat(directory, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            close(directory)
            try #require(next >= 0)
            directory = next
            names.append(name)
        }
        defer { close(directory) }
        let file = openat(directory, "bottom", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o640)
        try #require(file >= 0)
        defer { close(file) }
        try #require(content.withUnsafeBytes { write(file, $0.baseAddress, $0.count) } == content.count)
        return ([root] + names + ["bottom"]).joined(separator: "/")
    }

    /// Removes `name` in `directory` and everything under it, a directory at a time through descriptors (no
    /// path of the deep tree fits one call).
    static func removeTree(_ name: String, in directory: Int32) {
        let opened = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard opened >= 0 else {
            unlinkat(directory, name, 0)
            return
        }
        for entry in (try? FileSystem.posix.entriesAt(opened, .max)) ?? [] { removeTree(entry, in: opened) }
        close(opened)
        unlinkat(directory, name, AT_REMOVEDIR)
    }

    @Test func aFileAndALinkBelowAPathLongerThanPATHMAXAreExaminedReadAndCopied() async throws {
        let directory = try TemporaryDirectory()
        defer {
            let top = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if top >= 0 {
                Self.removeTree("deep", in: top)
                close(top)
            }
            directory.remove()
        }
        let content = pattern(count: 5000, seed: 3)
        let source = try Self.deepFile(under: directory.directory("deep"), content: content)
        #expect(source.utf8.count > Int(PATH_MAX))
        let fileSystem = FileSystem.posix
        let byPath = try fileSystem.statusOfPath(source)
        let entry = try fileSystem.statusAt(AT_FDCWD, source)
        #expect([byPath.size, entry.size] == [5000, 5000])
        #expect(entry.kind == .regularFile)
        let link = String(source.dropLast("bottom".count)) + "link"
        try #require(symlink("bottom", link) != 0)  // no single call takes the path: made below, in its directory
        let bottom = try fileSystem.open(String(source.dropLast("/bottom".count)), O_RDONLY | O_DIRECTORY, 0)
        defer { fileSystem.close(bottom) }
        try #require(symlinkat("bottom", bottom, "link") == 0)
        #expect(try fileSystem.readLinkAt(AT_FDCWD, link) == "bottom")
        #expect(try fileSystem.statusAt(AT_FDCWD, link).kind == .symbolicLink)

        let destination = try directory.directory("out")
        let request = CopyRequest(id: "1", source: source, destinationDirectory: destination)
        let outcome = try await CopyJob(request: request).run()
        #expect(
            outcome
                == .completed(
                    CommittedFile(path: destination + "/bottom", size: 5000, digest: ContentDigest.of(content))))
        #expect(contents(of: destination + "/bottom") == content)
    }
}
