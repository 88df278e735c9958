import DashboardApp
import Foundation
import TerminalUI
import Testing

/// One source for keys (issue 17): the man page's KEYS section and the README's key table are written from
/// the key tables. A difference fails; `STATETUI_RECORD=1` (`make keys-docs`) rewrites both files instead.
@Suite struct KeyDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let recording = ProcessInfo.processInfo.environment["STATETUI_RECORD"] == "1"

    /// Compares `file` with what `regenerate` makes of it, or writes that when recording.
    static func check(_ path: String, _ regenerate: (String) -> String?) throws {
        let url = root.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        let expected = try #require(regenerate(text), "\(path) has no key section")
        if recording && expected != text { try Data(expected.utf8).write(to: url) }
        #expect(recording || expected == text, "\(path) disagrees with the key tables: run make keys-docs")
    }

    @Test func theManPageKeysSectionIsTheKeyTables() throws {
        try Self.check("Resources/statetui.1", KeyDocs.manPage(replacingKeysIn:))
    }

    @Test func theReadmeKeyTableIsTheKeyTables() throws {
        try Self.check("README.md", KeyDocs.readme(replacingKeyTableIn:))
    }

    /// Every key entry of every table appears in both documents, the arrows as the man page's glyphs.
    @Test func everyHelpEntryIsDocumented() {
        let section = KeyDocs.manPageSection
        let table = KeyDocs.readmeTable
        for group in KeyDocs.groups {
            for key in group.keys {
                #expect(section.contains(".It Ic \"\\&\(KeyDocs.roff(key.key))\"\n\(KeyDocs.roff(key.label))\n"))
                #expect(table.contains("`\(key.key)` \(key.label)"))
            }
        }
        #expect(KeyDocs.groups.map(\.title) == ["Everywhere"] + Screen.allCases.map { "\($0.rawValue) \($0.title)" })
    }

    /// A stale document is found: an entry the tables no longer have makes the regenerated text differ.
    @Test func aDocumentListingAnOldKeyDiffers() throws {
        let stale = KeyDocs.readmeTable.replacingOccurrences(of: "`s` start", with: "`x` start")
        let readme = "# statetui\n\n### Keys\n\n" + stale + "\nmore\n"
        #expect(
            KeyDocs.readme(replacingKeyTableIn: readme) == "# statetui\n\n### Keys\n\n" + KeyDocs.readmeTable
                + "\nmore\n")
        #expect(KeyDocs.readme(replacingKeyTableIn: readme) != readme)
        #expect(KeyDocs.manPage(replacingKeysIn: ".Sh NAME\nx\n") == nil)
    }
}
