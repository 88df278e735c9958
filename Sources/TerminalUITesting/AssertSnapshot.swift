import TerminalUI
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Whether this run rewrites golden files instead of comparing: `SNAPSHOT_UPDATE=1`.
var isUpdatingSnapshots: Bool {
    ProcessInfo.processInfo.environment["SNAPSHOT_UPDATE"] == "1"
}

/// Compares `canvas`, as plain text, with `__Snapshots__/NAME.txt` next to the calling test file; records a
/// test issue with a line diff when they differ. With `SNAPSHOT_UPDATE=1` the file is rewritten instead; a
/// missing file is written and reported, so a new snapshot is always looked at once.
public func assertSnapshot(
    _ canvas: Canvas,
    named name: String,
    filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    assertSnapshot(text: Snapshot.text(of: canvas), named: name, filePath: filePath, sourceLocation: sourceLocation)
}

/// Compares `text` with `__Snapshots__/NAME.txt` next to the calling test file (see the canvas variant).
public func assertSnapshot(
    text: String,
    named name: String,
    filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    let path = directory.appendingPathComponent("\(name).txt").path
    let existed = FileManager.default.fileExists(atPath: path)
    do {
        switch try Snapshot.compare(text, toFileAt: path, update: isUpdatingSnapshots) {
        case .matched:
            break
        case .recorded(let written):
            if !isUpdatingSnapshots && !existed {
                Issue.record(
                    "No snapshot was recorded yet; wrote \(written). Check it and run again.",
                    sourceLocation: sourceLocation)
            }
        case .mismatch(let diff):
            Issue.record(
                "Snapshot \(name) differs (- recorded, + now; SNAPSHOT_UPDATE=1 rewrites it):\n\(diff)",
                sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record(
            "Snapshot \(name) could not be read or written at \(path): \(error)", sourceLocation: sourceLocation)
    }
}
