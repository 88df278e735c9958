import Foundation

/// Paths in the package, found from this file's own location so the tests run from any directory.
enum PackagePaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let snippetFolder = root.appendingPathComponent("Tests/DocSnippetsTests")
    static let catalogs = ["StateMachineKit", "StateMachineTesting", "StateMachineDiagrams", "StateMachineInspector"]
        .map {
            root.appendingPathComponent("Sources/\($0)/\($0).docc")
        }

    /// Every Markdown file of every catalog, sorted by path.
    static func articles() throws -> [URL] {
        try catalogs.flatMap { catalog in
            try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "md" }
        }.sorted { $0.path < $1.path }
    }

    /// Every snippet region of every Swift file in this test target.
    static func snippets() throws -> [Snippet] {
        try FileManager.default.contentsOfDirectory(at: snippetFolder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
            .flatMap { try Snippet.all(in: String(contentsOf: $0, encoding: .utf8), file: $0.lastPathComponent) }
    }
}
