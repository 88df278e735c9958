import Foundation
import Testing

@testable import FileTransfer

/// The copy reads its source until the end of the file, never trusting `st_size` alone.
@Suite struct ReadUntilEndTests {
    #if os(Linux)
    /// `/proc/version` reports 0 bytes in `stat` and holds a line of text: the copy holds that line.
    @Test func aFileWhoseSizeIsZeroInStatIsCopiedWhole() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let expected = try #require(contents(of: "/proc/version"))
        #expect(size(of: "/proc/version") == 0 && !expected.isEmpty)
        let request = CopyRequest(id: "1", source: "/proc/version", destinationDirectory: directory.path)
        let outcome = try await CopyJob(request: request, options: CopyOptions(chunkSize: 16)).run()
        #expect(
            outcome
                == .completed(
                    CommittedFile(
                        path: directory.file("version"), size: Int64(expected.count), digest: ContentDigest.of(expected)
                    )))
        #expect(contents(of: directory.file("version")) == expected)
    }
    #endif
}
