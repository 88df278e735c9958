import Foundation
import Testing

@testable import FileTransfer

/// A copy whose destination is its source (the same device and inode) is refused, as `cp` refuses it.
@Suite struct SameFileTests {
    /// `copy --overwrite f .` from the file's own directory, and a destination that is a hard link to the
    /// source: both refused, the source keeps its bytes, its mode and its inode's other names.
    @Test(arguments: [false, true])
    func aCopyOntoItsSourceIsRefusedAndTheSourceIsUntouched(throughHardLink: Bool) async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        #expect(chmod(fixture.source, 0o600) == 0)
        let destination: String
        if throughHardLink {
            destination = fixture.destination
            #expect(link(fixture.source, fixture.finalPath) == 0)
        } else {
            destination = fixture.directory.path
        }
        let request = CopyRequest(id: "1", source: fixture.source, destinationDirectory: destination, overwrite: true)
        let job = CopyJob(request: request, options: fixture.options())
        await #expect(throws: TransferError.sameFile(source: fixture.source, destination: destination + "/source.bin"))
        {
            try await job.run()
        }
        var raw = stat()
        #expect(stat(fixture.source, &raw) == 0)
        #expect(UInt32(raw.st_mode) & 0o7777 == 0o600 && raw.st_nlink == (throughHardLink ? 2 : 1))
        #expect(contents(of: fixture.source) == fixture.content)
    }

    /// A destination inside a source directory (at any depth, or the directory itself) lies within it;
    /// a sibling does not.
    @Test(arguments: [("src", true), ("src/a/b", true), ("other", false), ("", false)])
    func aDestinationInsideASourceDirectoryIsWithinIt(destination: String, within: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try directory.directory("src")
        _ = try directory.directory("src/a/b")
        _ = try directory.directory("other")
        let root = try FileSystem.posix.statusOfPath(source)
        let opened = try DestinationDirectory(path: destination.isEmpty ? directory.path : directory.file(destination))
        #expect(opened.isWithin(root.identity) == within)
    }
}
