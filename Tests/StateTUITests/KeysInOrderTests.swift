import DashboardApp
import ScreenStates
import StateMachineKit
import TerminalUI
import Testing

/// Issue 17: keys are applied in the order typed, against the state they meet.
@Suite struct KeysInOrderTests {
    /// `s p` typed fast: both keys wait in the terminal before the run loop reads the first, so `p` is read
    /// while the screen may still show the transfer idle (the machine's `states()` has not delivered `running`
    /// yet). The key is an intent the machine judges when it meets it, after `s`'s start (effects run in the
    /// order asked for): the transfer ends paused. Before, `p` was judged against the idle snapshot and
    /// dropped, and this run never reached `paused`.
    @Test(.timeLimit(.minutes(1))) func startThenPauseTypedBackToBackEndsPaused() async {
        let session = DemoSession(seed: 1)
        let machine = session.simulatedTransfers[0].machine
        let terminal = HeadlessTerminal(
            size: Size(width: 80, height: 24), script: [.key(.character("s")), .key(.character("p"))])
        let app = session.app
        let run = Task { await app.run(detachedOn: terminal) }
        for await model in machine.engine.states() {
            if case .paused = model.phase { break }
        }
        terminal.enqueue(keys: [.character("q")])
        let final = await run.value
        #expect(machine.engine.history.map(\.event) == [.start, .pause])
        #expect(machine.engine.history.map(\.outcome) == [.moved, .moved])
        #expect(final.exit == .quit)
    }
}
