import ScreenStates

/// What the Graph screen shows: the selected model's report, how far it is scrolled, and what became of
/// the last Mermaid export.
public struct GraphScreenState: Hashable, Sendable {
    /// The outcome of writing a Mermaid file.
    public enum Export: Hashable, Sendable {
        /// Written to this path.
        case written(path: String)
        /// Could not be written to this path, for this reason.
        case failed(path: String, reason: String)
    }

    /// The explored model.
    public var report: GraphReport
    /// The first body line shown.
    public var offset: Int
    /// The first column shown (the table is wider than most terminals).
    public var column: Int
    /// The last export, if any.
    public var export: Export?

    /// The screen on `model`, scrolled to the top.
    public init(model: ScreenModel = .transfer, offset: Int = 0, column: Int = 0, export: Export? = nil) {
        report = GraphReport(model)
        self.offset = offset
        self.column = column
        self.export = export
    }

    /// The selected model.
    public var model: ScreenModel { report.model }
}
