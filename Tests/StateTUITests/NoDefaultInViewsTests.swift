import Foundation
import Testing

/// Seed 002: a `default:` in a switch over a state silences exactly the error that reminds you to render a
/// new case. Scans every Swift file under Sources/StateTUI; a `default:` is allowed only with a comment on
/// its line saying `not a state switch` (string parsing in the command line).
@Suite struct NoDefaultInViewsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/StateTUI")

    static func swiftFiles() throws -> [URL] {
        let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// The `default:` lines of `source` that carry no justification, as `line: text`.
    static func unjustifiedDefaults(in source: String) -> [String] {
        source.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            // String literals and comments are not code: `"(default: 3)"` in a help text is fine.
            let unquoted = String(line).replacingOccurrences(of: #""([^"\\]|\\.)*""#, with: "\"\"", options: .regularExpression)
            let code = unquoted.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard code.range(of: #"(^|[^A-Za-z_.])default\s*:"#, options: .regularExpression) != nil else { return nil }
            guard !line.contains("// not a state switch") else { return nil }
            return "\(index + 1): \(line.trimmingCharacters(in: .whitespaces))"
        }
    }

    @Test func noViewOrReducerSwitchHasADefault() throws {
        let files = try Self.swiftFiles()
        #expect(files.contains { $0.lastPathComponent == "AppView.swift" }, "the scan must see the views")
        for file in files {
            let found = Self.unjustifiedDefaults(in: try String(contentsOf: file, encoding: .utf8))
            #expect(found.isEmpty, "default: in \(file.lastPathComponent): \(found)")
        }
    }

    @Test func theScanFindsADefaultAndHonoursTheMarker() {
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
        #expect(Self.unjustifiedDefaults(in: source) == [#"3: default: "other""#])
    }
}
