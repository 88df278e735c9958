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
}
