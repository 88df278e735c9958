import Foundation
import TerminalUI

/// Golden-text snapshots of canvases: compare a rendering with a text file, rewrite the file on purpose.
/// Plain functions, so any test framework can wrap them (``TerminalUITesting`` does for Swift Testing).
public enum Snapshot {
    /// What comparing a rendering with its golden file found.
    public enum Outcome: Hashable, Sendable {
        /// The file holds exactly this text.
        case matched
        /// The file was written (it was missing, or an update was asked for).
        case recorded(path: String)
        /// The file differs; the associated text is a line diff, `-` for the file, `+` for the rendering.
        case mismatch(diff: String)
    }

    /// The text a snapshot stores for a canvas: its plain-text lines, each ended by a newline.
    public static func text(of canvas: Canvas) -> String {
        canvas.text
    }

    /// Compares `text` with the file at `path`: writes it when `update` is true or the file is missing,
    /// otherwise reports a line diff when they differ.
    public static func compare(_ text: String, toFileAt path: String, update: Bool) throws -> Outcome {
        let url = URL(fileURLWithPath: path)
        let manager = FileManager.default
        if update || !manager.fileExists(atPath: path) {
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            return .recorded(path: path)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if expected == text { return .matched }
        return .mismatch(diff: lineDiff(expected: expected, actual: text))
    }

    /// A line-by-line diff: unchanged lines are left out, each differing line number shows the expected line
    /// (`-`) and the actual one (`+`); a trailing `$` marks each line's end so trailing spaces show.
    public static func lineDiff(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for index in 0..<max(old.count, new.count) {
            let before = index < old.count ? old[index] : nil
            let after = index < new.count ? new[index] : nil
            guard before != after else { continue }
            let number = String(index + 1)
            if let before { out.append("-\(number): \(before)$") }
            if let after { out.append("+\(number): \(after)$") }
        }
        return out.joined(separator: "\n")
    }
}
