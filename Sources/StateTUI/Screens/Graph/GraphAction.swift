import ScreenStates

/// What can happen on the Graph screen.
public enum GraphAction: Hashable, Sendable {
    /// `g`/`→`: the next model (transfer, upload, load, then round again).
    case nextModel
    /// `←`: the previous model.
    case previousModel
    /// `↑`/`↓`/PgUp/PgDn/Home/End: scroll by this many lines (Home/End use the extremes).
    case scroll(Int)
    /// `[`/`]`: scroll sideways by this many columns.
    case scrollSideways(Int)
    /// `m`: write the Mermaid diagram to a file in the current directory.
    case writeMermaid
    /// The export finished.
    case exported(GraphScreenState.Export)
}
