import TerminalUI

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

    /// The text a snapshot stores for a canvas: its plain-text lines, each ended by a newline, then the
    /// ``styles(of:)`` block, so a golden file catches a lost highlight or a wrong colour as well as wrong text.
    public static func text(of canvas: Canvas) -> String {
        canvas.text + styles(of: canvas)
    }

    /// The first line of the style block under a snapshot's text.
    public static let stylesHeader = "-- styles (row: first-last column style) --"

    /// The styles of `canvas` as text, like ratatui's `TestBackend` asserts them: a header line, then one line
    /// per row that holds a styled cell, `ROW: RUN, RUN`, each run the columns of neighbouring cells in one
    /// style (`0-9 bold reverse`, `12 fg=green`), from the left; plain cells are not listed. Rows and columns
    /// count from 0. A canvas with no styled cell says `(all plain)`.
    public static func styles(of canvas: Canvas) -> String {
        var out = stylesHeader + "\n"
        var listed = false
        for y in 0..<canvas.size.height {
            var runs: [String] = []
            var start = 0
            while start < canvas.size.width {
                let style = canvas[start, y].style
                var end = start
                while end + 1 < canvas.size.width && canvas[end + 1, y].style == style { end += 1 }
                if style != .plain {
                    let columns = start == end ? "\(start)" : "\(start)-\(end)"
                    runs.append(columns + " " + describe(style))
                }
                start = end + 1
            }
            guard !runs.isEmpty else { continue }
            listed = true
            out += "\(y): " + runs.joined(separator: ", ") + "\n"
        }
        return listed ? out : out + "(all plain)\n"
    }

    /// A style in words: `fg=NAME`, `bg=NAME`, then its attributes, in that order (`fg=green bold reverse`).
    public static func describe(_ style: Style) -> String {
        var words: [String] = []
        if style.foreground != .default { words.append("fg=" + colorName(style.foreground)) }
        if style.background != .default { words.append("bg=" + colorName(style.background)) }
        let named: [(Attributes, String)] = [
            (.bold, "bold"), (.dim, "dim"), (.reverse, "reverse"), (.underline, "underline"),
        ]
        for (attribute, name) in named where style.attributes.contains(attribute) { words.append(name) }
        return words.isEmpty ? "plain" : words.joined(separator: " ")
    }

    /// The ANSI name of colours 0–15 (`red`, `brightBlack`), `color(N)` for the rest of the palette, `#rrggbb`
    /// for a 24-bit colour.
    private static func colorName(_ color: Color) -> String {
        let names = [
            "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "brightBlack", "brightRed",
            "brightGreen", "brightYellow", "brightBlue", "brightMagenta", "brightCyan", "brightWhite",
        ]
        let index = Int(color.paletteIndex)
        return color.components == nil && names.indices.contains(index) ? names[index] : color.description
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
