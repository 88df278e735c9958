import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@StateMachine`: reads the nested `State` and `Event` enums and `static let table = Table(…)`, checks
/// the graph, and adds the transition function, the diagram and the case-name enums.
public struct StateMachineMacro: MemberMacro {
    /// Reads and checks the table, reports every problem at its node, and returns the generated members
    /// (none when the declaration cannot be read at all).
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let machine: MachineSyntax
        do {
            machine = try MachineReader.read(declaration, attribute: node)
        } catch {
            context.diagnose(Diagnostic(node: error.node, message: error.message))
            return []
        }
        let analysis = TableAnalysis(machine)
        for diagnostic in analysis.diagnostics {
            context.diagnose(diagnostic)
        }
        let access = declaration.modifiers.lazy.map(\.name.text).first { ["public", "package"].contains($0) }
        return MachineGenerator(machine: machine, analysis: analysis, access: access.map { $0 + " " } ?? "").members
    }
}
