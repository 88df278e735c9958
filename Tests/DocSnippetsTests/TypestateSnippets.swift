// The code of the "Typestate versus a runtime machine" article; see GettingStartedSnippets.swift for the markers.

import Foundation
import Testing

// snippet: transaction-typestate
/// A transaction that must end exactly once: committed or rolled back.
struct Transaction: ~Copyable {
    private var statements: [String] = []

    mutating func execute(_ statement: String) {
        statements.append(statement)
    }

    /// Ends the transaction; the value is consumed, so nothing can use it afterwards.
    consuming func commit() -> [String] {
        statements
    }

    /// Ends the transaction without applying anything.
    consuming func rollBack() {}
}
// end snippet

@Suite struct TypestateSnippets {
    @Test func aTransactionEndsOnce() {
        // snippet: transaction-use
        var transaction = Transaction()
        transaction.execute("INSERT INTO files VALUES ('a')")
        let applied = transaction.commit()
        // transaction.commit()  // error: 'transaction' consumed more than once
        // transaction.execute("…")  // error: 'transaction' used after consume
        // end snippet
        #expect(applied == ["INSERT INTO files VALUES ('a')"])
    }

    /// The article's claim, checked by the compiler: the commented-out lines of `transaction-use` do not compile.
    @Test(arguments: [
        ("transaction.commit()", "error: 'transaction' consumed more than once"),
        ("transaction.execute(\"DELETE FROM files\")", "error: 'transaction' used after consume"),
    ])
    func usingATransactionAfterCommitIsACompileError(misuse: String, error: String) async throws {
        let swiftc = try #require(DocumentationCoverageTests.tool("swiftc"), "no swiftc on PATH")
        let type = try #require(try PackagePaths.snippets().first { $0.name == "transaction-typestate" })
        let source =
            type.text + """

                func misuse() {
                    var transaction = Transaction()
                    transaction.execute("INSERT INTO files VALUES ('a')")
                    _ = transaction.commit()
                    \(misuse)
                }

                """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typestate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Misuse.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        // The move checker runs on SIL, so type checking alone would not see the misuse.
        let (status, output) = try await DocumentationCoverageTests.run(
            swiftc, ["-emit-sil", "-parse-as-library", "-swift-version", "6", "-o", "/dev/null", file.path])
        #expect(status == 1)
        #expect(output.contains(error), "\(output)")
    }
}
