/// The dashboard's screens, in tab order; the raw value is the number key that selects it.
///
/// Every screen is a feature of one shape, in `Screens/<Name>/`: `XScreenState` (its state),
/// `XScreenAction`, `XScreenEffect` (work as values; a screen asking for none, like History, has none and its
/// `reduce` returns nothing), `XFeature` with `reduce`, `view` and `bindings` (its one key table, a
/// ``KeyBinding`` list), and `XRuntime`, which performs the effects and holds the machines (``TransfersRuntime``,
/// ``UploadRuntime``, ``LoadRuntime``, ``GraphRuntime``). The `Screen` infix keeps a screen's types apart from
/// its model's (`LoadAction` is the load model's event). Scrolling actions count rows one way: positive scrolls
/// down (forward), negative up. Adding a screen:
/// 1. a case here (its number and ``title``);
/// 2. its state in ``AppState``, its action in ``AppAction``, its effect in ``AppEffect`` (and its runtime in
///    ``DashboardEnvironment``);
/// 3. its one registration entry in ``feature``: the key table, view, reducer and effect runner that
///    ``AppReducer``, ``Keymap`` (keys, help bar, help overlay, man page and README), ``AppView`` and
///    ``DashboardEnvironment`` read; the compiler then points at the two lists of screen cases left, in
///    ``AppReducer`` and ``DashboardEnvironment/perform(_:send:)``;
/// 4. `make keys-docs` to write its keys into the man page and the README.
package enum Screen: Int, CaseIterable, Hashable, Sendable {
    /// Several transfers, simulated or real (`statetui copy`), each a `TransferMachine`.
    case transfers = 1
    /// The upload state of seed 001.
    case upload
    /// The load state of seed 002 next to a bag of flags.
    case load
    /// A machine's state graph.
    case graph
    /// A machine's recorded transitions.
    case history

    /// The tab's title.
    package var title: String {
        switch self {
        case .transfers: "Transfers"
        case .upload: "Upload"
        case .load: "Load"
        case .graph: "Graph"
        case .history: "History"
        }
    }

    /// The screen's registration: the one entry the reducer, the keymap, the view and the environment read.
    package var feature: ScreenFeature {
        switch self {
        case .transfers: Self.transfersFeature
        case .upload: Self.uploadFeature
        case .load: Self.loadFeature
        case .graph: Self.graphFeature
        case .history: Self.historyFeature
        }
    }

    private static let transfersFeature = ScreenFeature(
        state: { $0.transfers }, action: AppAction.transfers,
        actionOf: {
            guard case .transfers(let action) = $0 else { return nil }
            return action
        },
        effect: AppEffect.transfers,
        effectOf: {
            guard case .transfers(let effect) = $0 else { return nil }
            return effect
        }, reduce: { TransfersFeature.reduce(&$0.transfers, $1) }, view: TransfersFeature.view,
        bindings: TransfersFeature.bindings,
        perform: { environment, effect, _ in environment.transfers.perform(effect) })

    private static let uploadFeature = ScreenFeature(
        state: { $0.upload }, action: AppAction.upload,
        actionOf: {
            guard case .upload(let action) = $0 else { return nil }
            return action
        },
        effect: AppEffect.upload,
        effectOf: {
            guard case .upload(let effect) = $0 else { return nil }
            return effect
        }, reduce: { UploadFeature.reduce(&$0.upload, $1) }, view: UploadFeature.view, bindings: UploadFeature.bindings,
        perform: { environment, effect, send in environment.upload.run(effect, send: send) })

    private static let loadFeature = ScreenFeature(
        state: { $0.load }, action: AppAction.load,
        actionOf: {
            guard case .load(let action) = $0 else { return nil }
            return action
        },
        effect: AppEffect.load,
        effectOf: {
            guard case .load(let effect) = $0 else { return nil }
            return effect
        }, reduce: { LoadFeature.reduce(&$0.load, $1) }, view: LoadFeature.view, bindings: LoadFeature.bindings,
        perform: { environment, effect, _ in environment.load.run(effect) })

    private static let graphFeature = ScreenFeature(
        state: { $0.graph }, action: AppAction.graph,
        actionOf: {
            guard case .graph(let action) = $0 else { return nil }
            return action
        },
        effect: AppEffect.graph,
        effectOf: {
            guard case .graph(let effect) = $0 else { return nil }
            return effect
        }, reduce: { GraphFeature.reduce(&$0.graph, $1) }, view: GraphFeature.view, bindings: GraphFeature.bindings,
        perform: { environment, effect, send in environment.graph.run(effect, send: send) })

    private static let historyFeature = ScreenFeature(
        state: { $0.history }, action: AppAction.history,
        actionOf: {
            guard case .history(let action) = $0 else { return nil }
            return action
        }, reduce: { HistoryFeature.reduce(&$0.history, $1) }, view: HistoryFeature.view,
        bindings: HistoryFeature.bindings, textInput: HistoryFeature.textInput)

    /// The screens of `statetui copy`'s dashboard: the copies, their history and their diagram. The simulated
    /// Upload and Load stay in the demo dashboard.
    package static let copyScreens: [Screen] = [.transfers, .graph, .history]

    /// The screen after this one among `screens`, wrapping around (Tab).
    package func next(in screens: [Screen] = Screen.allCases) -> Screen { cycle(in: screens, step: 1) }

    /// The screen before this one among `screens`, wrapping around (Shift-Tab).
    package func previous(in screens: [Screen] = Screen.allCases) -> Screen { cycle(in: screens, step: -1) }

    private func cycle(in screens: [Screen], step: Int) -> Screen {
        guard let start = screens.firstIndex(of: self) else { return self }
        return screens[(start + step + screens.count) % screens.count]
    }
}
