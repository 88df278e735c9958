import TerminalUI

/// The man page's KEYS section and the README's key table, written from the key tables (``Keymap``), so the
/// documentation lists exactly the keys the dashboard has. `KeyDocsTests` compares them with
/// `Resources/statetui.1` and `README.md`; `make keys-docs` rewrites both.
package enum KeyDocs {
    /// The groups of keys in the documentation's order: the app-wide keys, then each screen's, by number.
    package static var groups: [(title: String, keys: [KeyHelp])] {
        [("Everywhere", Keymap.globalHelp)]
            + Screen.allCases.map { ("\($0.rawValue) \($0.title)", Keymap.bindings(for: $0).allHelp()) }
    }

    /// The man page's KEYS section, from its `.Sh KEYS` line to the end of its last line.
    package static var manPageSection: String {
        var lines = [
            ".Sh KEYS",
            "The help overlay",
            ".Pq Ic \\&?",
            "lists the same keys, the active screen's first.",
            "The help bar at the bottom shows only the keys that apply to the current screen and selection,",
            "as the model's transition function says.",
        ]
        for group in groups {
            lines += [".Ss \(roff(group.title))", ".Bl -tag -width Ds -compact"]
            for key in group.keys { lines += [".It Ic \"\\&\(roff(key.key))\"", roff(key.label)] }
            lines.append(".El")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The README's key table: one row per group, its keys in backticks.
    package static var readmeTable: String {
        var lines = ["| Screen | Keys |", "| --- | --- |"]
        for group in groups {
            let keys = group.keys.map { "`\($0.key)` \($0.label)" }.joined(separator: " · ")
            lines.append("| \(group.title) | \(keys) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `manPage` with its KEYS section (up to the next `.Sh`) replaced by ``manPageSection``; nil when it has
    /// no KEYS section.
    package static func manPage(replacingKeysIn manPage: String) -> String? {
        replace(in: manPage, from: { $0 == ".Sh KEYS" }, through: { !$0.hasPrefix(".Sh ") }, with: manPageSection)
    }

    /// `readme` with its key table (the lines from `| Screen | Keys |` while they start with `|`) replaced by
    /// ``readmeTable``; nil when it has no such table.
    package static func readme(replacingKeyTableIn readme: String) -> String? {
        replace(in: readme, from: { $0 == "| Screen | Keys |" }, through: { $0.hasPrefix("|") }, with: readmeTable)
    }

    /// `text` with the lines from the first one `isStart` accepts, and the following ones `continues` accepts,
    /// replaced by `replacement`.
    static func replace(
        in text: String, from isStart: (Substring) -> Bool, through continues: (Substring) -> Bool,
        with replacement: String
    ) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: isStart) else { return nil }
        let end = lines[(start + 1)...].firstIndex { !continues($0) } ?? lines.endIndex
        let before = lines[..<start].map { $0 + "\n" }.joined()
        let after = lines[end...].joined(separator: "\n")
        return before + replacement + after
    }

    /// `text` for a roff line: backslashes escaped, the arrows and the dash as roff glyphs (the page stays
    /// ASCII), and a leading `.` or `'` kept from being read as a request.
    package static func roff(_ text: String) -> String {
        let glyphs: [Character: String] = [
            "\\": "\\e", "–": "\\(en", "↑": "\\(ua", "↓": "\\(da", "←": "\\(<-", "→": "\\(->", "\"": "\\(dq",
        ]
        let escaped = text.map { glyphs[$0] ?? String($0) }.joined()
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
