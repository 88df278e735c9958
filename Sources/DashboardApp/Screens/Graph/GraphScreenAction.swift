import SeedModels

/// What can happen on the Graph screen.
package enum GraphScreenAction: Hashable, Sendable {
    /// `]`: the next model (transfer, upload, load, then round again).
    case nextModel
    /// `[`: the previous model.
    case previousModel
    /// `↑`/`↓`/PgUp/PgDn/`g`/`G`/Home/End and the wheel: pan (or scroll the table) by this many rows (Home/End use
    /// the extremes). Positive scrolls down (forward), negative up, as ``HistoryScreenAction/scroll(_:)`` does.
    case scroll(Int)
    /// `←`/`→`/`H`/`L`: pan sideways by this many columns; positive pans right (forward), negative left.
    case scrollSideways(Int)
    /// `f`: the full graph (one box per explored state) or the diagram collapsed by case.
    case toggleFullGraph
    /// `t`: the transition table or the diagram.
    case toggleTable
    /// `m`: write the Mermaid diagram to a file in the current directory.
    case writeMermaid
    /// The export finished.
    case exported(GraphScreenState.Export)
    /// This export's message has been shown long enough (``StatusExpiry``).
    case exportExpired(StatusLine<GraphScreenState.Export>.Message)
}
