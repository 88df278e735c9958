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
