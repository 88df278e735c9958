/// The whole dashboard state: which screen is shown, one child state per screen feature, the overlay and
/// whether the app is finishing. Each child holds the newest snapshots of its machines, never a copy the
/// app mutates itself.
public struct AppState: Hashable, Sendable {
    /// The screen shown (always an available one).
    public var screen: Screen
    /// The Transfers screen.
    public var transfers: TransfersScreenState
    /// The Upload screen.
    public var upload: UploadScreenState
    /// The Load screen.
    public var load: LoadScreenState
    /// The Graph screen.
    public var graph: GraphScreenState
    /// The History screen.
    public var history: HistoryScreenState
    /// What is drawn over the screen, if anything.
    public var overlay: Overlay?
    /// Set when the app should stop; the run loop returns once it is.
    public var exit: ExitReason?

    /// A dashboard on `screen` with the given child states.
    public init(
        screen: Screen = .transfers, transfers: TransfersScreenState, upload: UploadScreenState = UploadScreenState(),
        load: LoadScreenState = LoadScreenState(), graph: GraphScreenState = GraphScreenState(),
        history: HistoryScreenState = HistoryScreenState(), overlay: Overlay? = nil, exit: ExitReason? = nil
    ) {
        self.screen = screen
        self.transfers = transfers
        self.upload = upload
        self.load = load
        self.graph = graph
        self.history = history
        self.overlay = overlay
        self.exit = exit
    }
}
