import Foundation
import StateMachineKit
import Testing

/// The articles' code cannot rot: every ```swift block is a marked snippet of a compiled test file, and
/// the output an article shows (a diagram, a table, a counterexample) is what the code prints.
@Suite struct ArticleSnippetTests {
    @Test func everySwiftBlockInTheArticlesIsACompiledSnippet() throws {
        let snippets = try PackagePaths.snippets()
        var missing: [String] = []
        for article in try PackagePaths.articles() {
            for block in try CodeBlock.all(in: String(contentsOf: article, encoding: .utf8))
            where block.language == "swift" && !block.isPackageManifest
                && !snippets.contains(where: { $0.text == block.text })
            {
                missing.append("\(article.lastPathComponent): \(block) is in no snippet:\n\(block.text)")
            }
        }
        #expect(missing == [], "copy the block from a `// snippet:` region of Tests/DocSnippetsTests")
    }

    /// A manifest cannot compile in a test target: `make test-adopt` builds a package from the one manifest
    /// the articles show, so it is the adoption article's, and the script reads it from there.
    @Test func theOnlyManifestIsTheAdoptionArticlesWhichMakeTestAdoptBuilds() throws {
        let manifests = try PackagePaths.articles().flatMap { article in
            try CodeBlock.all(in: String(contentsOf: article, encoding: .utf8)).filter(\.isPackageManifest).map { _ in
                article.lastPathComponent
            }
        }
        #expect(manifests == ["AdoptingStateMachineKit.md"])
        let script = try String(
            contentsOf: PackagePaths.root.appendingPathComponent("Tests/EndToEnd/adopt.sh"), encoding: .utf8)
        #expect(script.contains("StateMachineKit.docc/AdoptingStateMachineKit.md"))
    }

    @Test func everySnippetIsShownInAnArticle() throws {
        let blocks = try PackagePaths.articles().flatMap {
            try CodeBlock.all(in: String(contentsOf: $0, encoding: .utf8))
        }
        let unused = try PackagePaths.snippets().filter { snippet in !blocks.contains { $0.text == snippet.text } }
        #expect(unused.map { "\($0.file): \($0.name)" } == [])
    }

    @Test func snippetNamesAreUnique() throws {
        let names = try PackagePaths.snippets().map(\.name)
        #expect(names.count == Set(names).count, "\(names.sorted())")
    }

    @Test func theArticlesBlocksAreTheMarkdownTheyClaim() throws {
        let languages = try Set(
            PackagePaths.articles().flatMap { try CodeBlock.all(in: String(contentsOf: $0, encoding: .utf8)) }
                .map(\.language))
        #expect(languages.isSubset(of: ["swift", "mermaid", "text", "sh", "json"]), "\(languages.sorted())")
    }

    @Test func theDiagramInTheExplorationArticleIsTheDoorsMermaid() throws {
        let blocks = try Self.blocks(of: "StateMachineKit.docc/ExploringAMachine.md")
        let mermaid = try #require(blocks.first { $0.language == "mermaid" })
        #expect(mermaid.text + "\n" == ExploringAMachineSnippets.doorGraph.mermaid)
        let table = try #require(blocks.first { $0.language == "text" })
        #expect(table.text + "\n" == ExploringAMachineSnippets.doorGraph.transitionTable)
    }

    @Test func theCounterexampleInTheTestingArticleIsWhatCheckModelPrints() throws {
        let blocks = try Self.blocks(of: "StateMachineTesting.docc/ModelBasedTesting.md")
        let printed = try #require(blocks.first { $0.language == "text" })
        let found = try #require(ModelBasedTestingSnippets.printedCounterexample)
        #expect(printed.text == found.description)
    }

    @Test func extractingBlocksKeepsTheirTextExactly() throws {
        let markdown = "Intro\n\n```swift\nlet a = 1\n\n    indented\n```\n\n```text\nplain\n```\n"
        #expect(
            try CodeBlock.all(in: markdown) == [
                CodeBlock(language: "swift", text: "let a = 1\n\n    indented", line: 3),
                CodeBlock(language: "text", text: "plain", line: 9),
            ])
        #expect(throws: ArticleError.self) { try CodeBlock.all(in: "```swift\nlet a = 1\n") }
    }

    @Test func snippetRegionsAreDedented() throws {
        let source = "func f() {\n    // snippet: one\n    let a = 1\n\n        let b = 2\n    // end snippet\n}\n"
        #expect(
            try Snippet.all(in: source, file: "F.swift") == [
                Snippet(name: "one", text: "let a = 1\n\n    let b = 2", file: "F.swift")
            ])
        #expect(throws: ArticleError.self) { try Snippet.all(in: "// snippet: a\nlet a = 1\n", file: "F.swift") }
    }

    static func blocks(of article: String) throws -> [CodeBlock] {
        // "StateMachineKit.docc/GettingStarted.md" lives in Sources/StateMachineKit.
        let module = String(article.prefix { $0 != "." })
        let url = PackagePaths.root.appendingPathComponent("Sources").appendingPathComponent(module)
            .appendingPathComponent(article)
        return try CodeBlock.all(in: String(contentsOf: url, encoding: .utf8))
    }
}
