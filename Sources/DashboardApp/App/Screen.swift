/// The dashboard's screens, in tab order; the raw value is the number key that selects it.
///
/// Adding a screen: a case here, its child state in ``AppState``, its
/// action to ``AppAction``, its effect to ``AppEffect`` and one line each to ``AppReducer``, ``Keymap``,
/// ``AppView`` and ``DashboardEnvironment``.
package enum Screen: Int, CaseIterable, Hashable, Sendable {
    /// Several simulated transfers, each a `TransferMachine`.
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
