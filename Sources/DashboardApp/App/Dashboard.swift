import StateMachineKit
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The dashboard `statetui` opens with no command: the pure parts wired into a TerminalUI ``App`` over
/// an environment, run on a real terminal.
package enum Dashboard {
    /// The app over `environment`: ``AppReducer``, ``AppView``, ``Keymap`` (keys, and what depends on the
    /// drawn layout: clicks, the wheel, scrolling the help), the environment's effect runner and the
    /// subscriptions each state asks for; the terminal's progress indicator follows the transfers. The live
    /// dashboard and every demo run this same app.
    package static func app(_ environment: DashboardEnvironment) -> App<AppState, AppAction, AppEffect> {
        App(
            initialState: environment.initialState,
            reduce: AppReducer.reduce,
            view: AppView.render,
            keymap: Keymap.action,
            isFinished: { $0.exit != nil },
            runEffect: { effect, send in environment.perform(effect, send: send) },
            subscribe: environment.subscriptions(for:),
            progress: AppReducer.progress,
            clipboard: { state in state.yank.message.map { ClipboardCopy(text: $0.content.text, number: $0.number) } })
    }
}
