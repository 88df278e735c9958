import TerminalUI

/// The History screen in the dashboard: the records of every machine the screens before it publish
/// (``NamedMachine``), those of the screens in the dashboard listed, the selected one's followed while shown.
extension HistoryFeature: DashboardScreen {
    package static let title = "History"

    /// The machines the screens before it in the registry publish.
    package static func makeRuntime(_ world: World, machines: [NamedMachine]) -> [NamedMachine] {
        machines
    }

    package static func initialState(
        _ runtime: [NamedMachine], mode: DashboardMode, machines: [NamedMachine]
    ) -> HistoryScreenState {
        HistoryScreenState(machines: NamedMachine.names(of: machines))
    }

    /// The selected machine's records, only while the screen is shown (and once the machine is made).
    package static func subscriptions(
        _ runtime: [NamedMachine], _ state: HistoryScreenState, shown: Bool
    ) -> [Subscription<HistoryScreenAction>] {
        guard shown, let name = state.machine, let history = runtime.first(where: { $0.name == name })?.history()
        else { return [] }
        return [history]
    }

    /// While shown, the rows end at the selected machine's newest record.
    package static func isSettled(_ state: HistoryScreenState, _ runtime: [NamedMachine], shown: Bool) -> Bool {
        guard shown, let name = state.machine else { return true }
        return state.rows.last?.sequence ?? 0 == runtime.first { $0.name == name }.map { $0.newest() } ?? 0
    }
}

extension Screen {
    /// The History screen.
    package static let history = Screen(HistoryFeature.self)
}
