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
/// 2. its state in ``AppState``, its action in ``AppAction``, its effect in ``AppEffect``;
/// 3. one line in each switch over the screen or its action the compiler then points at: ``AppReducer``
///    (reduce), ``Keymap/bindings(for:)`` (keys, help bar, help overlay, man page and README all read it),
///    ``AppView`` (view) and ``DashboardEnvironment`` (effects and subscriptions);
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

    /// The screen after this one, wrapping around (Tab).
    package var next: Screen { Screen.cycle(from: self, step: 1) }

    /// The screen before this one, wrapping around (Shift-Tab).
    package var previous: Screen { Screen.cycle(from: self, step: -1) }

    private static func cycle(from screen: Screen, step: Int) -> Screen {
        let all = allCases
        guard let start = all.firstIndex(of: screen) else { return screen }
        return all[(start + step + all.count) % all.count]
    }
}
