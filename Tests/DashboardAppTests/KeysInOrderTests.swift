import DashboardApp
import MachineDrivers
import SeedModels
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

    /// `s p` typed fast on the Upload screen: `p` meets the machine after `s`'s start, maybe before the
    /// upload's task has begun (the owner holds the task then), and the upload ends paused.
    @Test(.timeLimit(.minutes(1))) func startThenPauseTypedBackToBackOnUploadEndsPaused() async {
        let session = DemoSession(seed: 1)
        let machine = session.environment.upload.machine
        let terminal = HeadlessTerminal(
            size: Size(width: 80, height: 24),
            script: [.key(.character("2")), .key(.character("s")), .key(.character("p"))])
        let app = session.app
        let run = Task { await app.run(detachedOn: terminal) }
        for await upload in machine.engine.states() {
            if case .paused = upload { break }
        }
        terminal.enqueue(keys: [.character("q")])
        let final = await run.value
        #expect(machine.engine.history.map(\.event) == [.start(upload: 1), .pause])
        #expect(machine.engine.history.map(\.outcome) == [.moved, .moved])
        #expect(final.upload.notice == StatusLine())
    }

    /// `r` typed while the Load screen still shows the last request loading, though the machine already has
    /// its answer (the snapshot lags behind the machine): the key reaches the machine, which starts a new
    /// request. Before, the screen judged `r` against its stale `loading` and dropped it.
    @Test(.timeLimit(.minutes(1))) func aRefreshTheStaleScreenWouldRefuseReachesTheMachine() async throws {
        let session = DemoSession(seed: 1)
        let runtime = session.environment.load
        let store = Store(app: session.app)
        store.dispatch(.select(.load))
        store.dispatch(.load(.refresh))
        store.dispatch(.load(.loadChanged(.loading(previous: nil))))
        // The request's work tells the clock once it is set up: wait for that, never for time.
        let (setUps, noteSetUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        session.clock.whenScheduled { noteSetUp.yield() }
        var wakes = setUps.makeAsyncIterator()
        while !(runtime.machine.engine.history.count == 1 && runtime.isSetUp) { await wakes.next() }
        session.clock.whenScheduled(nil)
        session.clock.advance(by: .seconds(60))
        for await load in runtime.machine.engine.states() {
            if case .loaded = load { break }
        }
        store.dispatch(.load(.refresh))
        for await load in runtime.machine.engine.states() {
            if case .loading = load { break }
        }
        #expect(runtime.machine.engine.history.map(\.outcome) == [.moved, .moved, .moved])
        #expect(store.state.load.load == .loading(previous: nil))
    }
}
