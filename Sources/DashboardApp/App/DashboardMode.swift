import SeedModels

/// Which dashboard runs: the demo of the ideas (every screen, simulated work, faults on `f`) or `statetui
/// copy`'s copy tool (its copies with a total row, their History and their Graph; `f` only when asked for).
package enum DashboardMode: Hashable, Sendable {
    /// The demo dashboard `statetui` opens with no command.
    case demo
    /// `statetui copy`'s dashboard; `simulatesFaults` with `--simulate-faults`.
    case copy(simulatesFaults: Bool)

    /// The screens, in tab order.
    package var screens: [Screen] {
        switch self {
        case .demo: Screen.allCases
        case .copy: Screen.copyScreens
        }
    }

    /// The models the Graph screen draws: all of them in the demo, the copies' own (the transfer) in the copy tool.
    package var graphModels: [ScreenModel] {
        switch self {
        case .demo: ScreenModel.allCases
        case .copy: [.transfer]
        }
    }

    /// Whether `f` injects a simulated fault into the selected transfer.
    package var simulatesFaults: Bool {
        switch self {
        case .demo: true
        case .copy(let simulatesFaults): simulatesFaults
        }
    }

    /// Whether the Transfers screen sums its rows in a total row (they are one copy).
    package var showsTotals: Bool {
        switch self {
        case .demo: false
        case .copy: true
        }
    }
}
