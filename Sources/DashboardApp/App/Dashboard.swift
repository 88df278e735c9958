import StateMachineKit
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The dashboard `statetui` opens with no command: the pure parts wired into a TerminalUI ``App`` over
/// an environment, run on a real terminal.
public enum Dashboard {
    /// The app over `environment`: ``AppReducer``, ``AppView``, ``Keymap`` (with the drawn size,
    /// for paging), the environment's effect runner
    /// and the subscriptions each state asks for. The live dashboard and every demo run this same app.
    public static func app(_ environment: DashboardEnvironment) -> App<AppState, AppAction, AppEffect> {
        App(
            initialState: environment.initialState,
            reduce: AppReducer.reduce,
            view: AppView.render,
            keymap: Keymap.action,
            layoutKeymap: Keymap.pagedAction,
            isFinished: { $0.exit != nil },
            runEffect: { effect, send in environment.perform(effect, send: send) },
            subscribe: environment.subscriptions(for:))
    }
}
