import Foundation
import Testing

/// Seed 002: a `default:` in a switch over a state silences exactly the error that reminds you to render a
/// new case. Scans every Swift file of the app shell and the screens (Sources/DashboardApp/App and Screens: the
/// views, features, reducers and key tables, where the switches over states, actions and keys live): none
/// may have a `default:`, and no comment excuses one (the keymaps are tables of bindings, which need no
/// catch-all). The command line's and the demo player's parsers switch over characters, words and error
/// numbers, which no switch can list exhaustively, so they are not scanned.
@Suite struct NoDefaultInViewsTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/DashboardApp")
    static let roots = ["App", "Screens"].map { sources.appendingPathComponent($0) }

    static func swiftFiles() throws -> [URL] {
        try roots.flatMap { root in
            let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        }
    }

    /// The `default:` lines of `source`, as `line: text`.
    static func defaults(in source: String) -> [String] {
        source.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            // String literals and comments are not code: `"(default: 3)"` in a help text is fine.
            let unquoted = String(line).replacingOccurrences(
                of: #""([^"\\]|\\.)*""#, with: "\"\"", options: .regularExpression)
            let code = unquoted.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard code.range(of: #"(^|[^A-Za-z_.])default\s*:"#, options: .regularExpression) != nil else { return nil }
            return "\(index + 1): \(line.trimmingCharacters(in: .whitespaces))"
        }
    }

    @Test func noViewOrReducerSwitchHasADefault() throws {
        let files = try Self.swiftFiles()
        #expect(files.contains { $0.lastPathComponent == "AppView.swift" }, "the scan must see the views")
        #expect(files.contains { $0.lastPathComponent == "TransfersFeature.swift" }, "the scan must see the screens")
        #expect(files.contains { $0.lastPathComponent == "Keymap.swift" }, "the scan must see the keymaps")
        for file in files {
            let found = Self.defaults(in: try String(contentsOf: file, encoding: .utf8))
            #expect(found.isEmpty, "default: in \(file.lastPathComponent): \(found)")
        }
    }

    @Test func theScanFindsEveryDefaultWhateverItsComment() {
        let source = """
            switch state {
            case .idle: "idle"
            default: "other"
            }
            switch word {
            default:  // not a state switch: any other word is a usage error
            }
            let defaultValue = 1
            let help = "(default: 3)"
            """
        #expect(
            Self.defaults(in: source) == [
                #"3: default: "other""#, "6: default:  // not a state switch: any other word is a usage error",
            ])
    }
}
