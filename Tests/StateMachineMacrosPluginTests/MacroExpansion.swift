import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros

@testable import StateMachineMacrosPlugin

/// What expanding `@StateMachine` in a source text produced: the whole expanded source, and every
/// diagnostic with its line and column in the original text.
///
/// The toolchain ships no SwiftSyntaxMacrosTestSupport, so this is the small harness the tests use: parse
/// with SwiftParser, expand with SwiftSyntaxMacroExpansion, locate with SourceLocationConverter.
struct MacroExpansion {
    /// A diagnostic as a test compares it: where, how severe, what, its notes and its fix-its applied.
    struct Report: Equatable, CustomStringConvertible {
        var line: Int
        var column: Int
        var severity: String
        var message: String
        var notes: [String] = []
        /// Each fix-it as `message` followed by the original source with only that fix-it applied.
        var fixIts: [String] = []

        var description: String {
            (["\(line):\(column): \(severity): \(message)"] + notes.map { "  note: \($0)" }
                + fixIts.map { "  fix-it: \($0)" })
                .joined(separator: "\n")
        }
    }

    let expandedSource: String
    let reports: [Report]

    init(_ source: String) {
        let file = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(sourceFiles: [
            file: .init(moduleName: "Tests", fullFilePath: "Tests.swift")
        ])
        let expanded = file.expand(
            macros: ["StateMachine": StateMachineMacro.self], contextGenerator: { _ in context },
            indentationWidth: .spaces(4)
        )
        expandedSource = expanded.description
        let converter = SourceLocationConverter(fileName: "Tests.swift", tree: file)
        // Macros see a detached copy of the declaration; `context.location(of:)` maps a node back to the file.
        func place(_ node: Syntax) -> (line: Int, column: Int, shift: Int) {
            guard let location = context.location(of: node, at: .afterLeadingTrivia, filePathMode: .fileID),
                let line = location.line.as(IntegerLiteralExprSyntax.self)?.representedLiteralValue,
                let column = location.column.as(IntegerLiteralExprSyntax.self)?.representedLiteralValue
            else {
                let plain = converter.location(for: node.positionAfterSkippingLeadingTrivia)
                return (plain.line, plain.column, 0)
            }
            let offset = converter.position(ofLine: line, column: column).utf8Offset
            return (line, column, offset - node.positionAfterSkippingLeadingTrivia.utf8Offset)
        }
        reports = context.diagnostics.map { diagnostic in
            let (line, column, shift) = place(diagnostic.node)
            return Report(
                line: line, column: column, severity: "\(diagnostic.diagMessage.severity)", message: diagnostic.message,
                notes: diagnostic.notes.map { note in
                    let (line, column, _) = place(note.node)
                    return "\(line):\(column): \(note.message)"
                },
                fixIts: diagnostic.fixIts.map { fixIt in
                    fixIt.message.message + "\n" + Self.apply(fixIt.edits, shiftedBy: shift, to: source)
                }
            )
        }
    }

    /// Applies edits (positions in the macro's detached tree, moved by `shift` into the file) to `source`.
    private static func apply(_ edits: [SourceEdit], shiftedBy shift: Int, to source: String) -> String {
        var bytes = Array(source.utf8)
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            let lower = edit.range.lowerBound.utf8Offset + shift
            let upper = edit.range.upperBound.utf8Offset + shift
            bytes.replaceSubrange(lower..<upper, with: edit.replacementBytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
