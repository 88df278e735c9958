import StateMachineDiagrams

/// How `statetui graph` prints an explored graph.
package enum GraphFormat: String, CaseIterable, Hashable, Sendable {
    /// A Mermaid `stateDiagram-v2` (the checked-in `Resources/diagrams/*.mmd`).
    case mermaid
    /// A Graphviz digraph.
    case dot
    /// A state × event grid: next state, `·` ignored, `=` stay, `!` invalid.
    case table
    /// Boxes and arrows drawn in text (``StateMachineKit/DiagramLayout``), collapsed by case by default.
    case text
}
