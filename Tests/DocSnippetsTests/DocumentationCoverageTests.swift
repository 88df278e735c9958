import Foundation
import Support
import Testing

/// Every public symbol of the documented libraries has its own `///` summary, checked on the symbol graph
/// that `swift-symbolgraph-extract` builds from the compiled modules (the same graphs `make docs` renders).
@Suite struct DocumentationCoverageTests {
    /// The part of a symbol graph this check reads.
    struct SymbolGraph: Decodable {
        struct Symbol: Decodable {
            struct Kind: Decodable { var identifier: String }
            struct Location: Decodable { var uri: String }
            struct DocComment: Decodable {
                struct Line: Decodable { var text: String }
                var lines: [Line]
                /// Set when the comment was inherited from another module (a protocol requirement's docs).
                var module: String?
            }
            var kind: Kind
            var pathComponents: [String]
            var location: Location?
            var docComment: DocComment?
        }
        var symbols: [Symbol]
    }

    @Test(arguments: ["StateMachineKit", "StateMachineTesting", "StateMachineDiagrams", "StateMachineInspector"])
    func everyPublicSymbolHasADocComment(module: String) async throws {
        let graph = try await Self.symbolGraph(of: module)
        #expect(graph.symbols.count > 10, "the symbol graph of \(module) looks empty")
        #expect(Self.undocumented(in: graph, module: module) == [], "add a /// summary to each public symbol listed")
    }

    @Test func symbolsWithoutTheirOwnCommentAreListed() throws {
        let json = """
            {"symbols": [
              {"kind": {"identifier": "swift.struct"}, "pathComponents": ["Documented"],
               "location": {"uri": "file:///A.swift"}, "docComment": {"lines": [{"text": "A summary."}]}},
              {"kind": {"identifier": "swift.func"}, "pathComponents": ["Documented", "bare()"],
               "location": {"uri": "file:///A.swift"}},
              {"kind": {"identifier": "swift.property"}, "pathComponents": ["Documented", "blank"],
               "location": {"uri": "file:///A.swift"}, "docComment": {"lines": [{"text": "  "}]}},
              {"kind": {"identifier": "swift.method"}, "pathComponents": ["Documented", "inherited()"],
               "location": {"uri": "file:///A.swift"},
               "docComment": {"module": "Swift", "lines": [{"text": "From the protocol."}]}},
              {"kind": {"identifier": "swift.init"}, "pathComponents": ["Documented", "init(from:)"]}
            ]}
            """
        let graph = try JSONDecoder().decode(SymbolGraph.self, from: Data(json.utf8))
        #expect(
            Self.undocumented(in: graph, module: "Kit") == [
                "swift.func Documented.bare()", "swift.property Documented.blank",
                "swift.method Documented.inherited()",
            ])
    }

    /// The symbols declared in source (compiler-made ones, such as Codable's, have no location) without a
    /// non-empty doc comment of their own, as "kind path".
    static func undocumented(in graph: SymbolGraph, module: String) -> [String] {
        graph.symbols.filter { symbol in
            guard symbol.location != nil else { return false }
            guard let comment = symbol.docComment, comment.module == nil || comment.module == module else {
                return true
            }
            return comment.lines.allSatisfy { $0.text.allSatisfy(\.isWhitespace) }
        }.map { "\($0.kind.identifier) \($0.pathComponents.joined(separator: "."))" }
    }

    /// Extracts the public symbol graph of `module` from the build products of this test run.
    static func symbolGraph(of module: String) async throws -> SymbolGraph {
        let products = try #require(buildProducts(), "the test binary is not inside a SwiftPM build folder")
        let extract = try #require(tool("swift-symbolgraph-extract"), "no swift-symbolgraph-extract next to swift")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("symbolgraph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        // Through a shell that lifts the file size limit to its hard maximum: a FileTransfer test lowers
        // RLIMIT_FSIZE process-wide while it runs, and a child started then would inherit it and fail writing a
        // symbol graph larger than that limit ("File too large").
        let (status, message) = try await run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "ulimit -f \"$(ulimit -H -f)\" && exec \"$0\" \"$@\"", extract.path,
                "-module-name", module, "-I", products.appendingPathComponent("Modules").path,
                "-target", triple(products: products), "-minimum-access-level", "public", "-skip-synthesized-members",
                "-skip-inherited-docs", "-output-dir", output.path,
            ])
        try #require(status == 0, "swift-symbolgraph-extract failed: \(message)")
        let data = try Data(contentsOf: output.appendingPathComponent("\(module).symbols.json"))
        return try JSONDecoder().decode(SymbolGraph.self, from: data)
    }

    /// Runs `executable` with `arguments` and returns its exit status and what it wrote to standard error. A tool
    /// of the toolchain runs for seconds: it is waited for on a thread of its own, never on one of the
    /// cooperative pool's few threads, which the other tests need meanwhile.
    static func run(_ executable: URL, _ arguments: [String]) async throws -> (status: Int32, errors: String) {
        try await DetachedThread.value(name: executable.lastPathComponent) { () throws -> (Int32, String) in
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, message)
        }
    }

    /// The folder holding the test binary and the built modules (`Modules/`).
    static func buildProducts() -> URL? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while folder.path != "/" {
            let modules = folder.appendingPathComponent("Modules/StateMachineKit.swiftmodule")
            if FileManager.default.fileExists(atPath: modules.path) { return folder }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// SwiftPM builds into `.build/<triple>/<configuration>`; the folder name is the target triple.
    static func triple(products: URL) -> String {
        let name = products.deletingLastPathComponent().lastPathComponent
        if name.split(separator: "-").count >= 3 { return name }
        #if arch(arm64)
        return "aarch64-unknown-linux-gnu"
        #else
        return "x86_64-unknown-linux-gnu"
        #endif
    }

    /// A tool of the toolchain, found on `PATH`.
    static func tool(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
