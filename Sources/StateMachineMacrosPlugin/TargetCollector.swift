import SwiftSyntax

/// Finds the states a deciding closure can move to: the first argument of every `.to(…)` and `.update(…)`.
/// A target it cannot name (`.to(next)`) is collected apart: the graph checks need every target.
final class TargetCollector: SyntaxVisitor {
    private(set) var targets: [CaseReference] = []
    private(set) var unresolved: [ExprSyntax] = []

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
            ["to", "update"].contains(member.declName.baseName.text),
            member.base == nil || member.base?.trimmedDescription.hasPrefix("Transition") == true,
            let first = node.arguments.first, first.label == nil
        {
            if let target = MachineReader.caseReference(first.expression) {
                targets.append(target)
            } else {
                unresolved.append(first.expression)
            }
        }
        return .visitChildren
    }
}
