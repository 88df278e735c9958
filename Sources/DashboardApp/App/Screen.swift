/// The dashboard's screens, in tab order; the raw value is the number key that selects it.
///
/// Adding a screen's feature: make ``isAvailable`` true for it, add its child state to ``AppState``, its
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

    /// Whether the screen has a feature yet. A screen without one shows dimmed in the tab bar and can never
    /// be selected, so the tab bar shows where it will be without pretending it works.
    package var isAvailable: Bool {
        switch self {
        case .transfers, .upload, .load, .graph, .history: true
        }
    }

    /// The screen after this one among the available ones, wrapping around (Tab).
    package var next: Screen { Screen.cycle(from: self, step: 1) }

    /// The screen before this one among the available ones, wrapping around (Shift-Tab).
    package var previous: Screen { Screen.cycle(from: self, step: -1) }

    private static func cycle(from screen: Screen, step: Int) -> Screen {
        let all = allCases
        guard let start = all.firstIndex(of: screen) else { return screen }
        var index = start
        for _ in all.indices {
            index = (index + step + all.count) % all.count
            if all[index].isAvailable { return all[index] }
        }
        return screen
    }
}
