import DashboardApp
import MachineDrivers
import SeedModels
import StateMachineKit
import TerminalUI
import TerminalUITesting
import Testing

@Suite struct LoadScreenTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 40, height: 12)]

    /// One screen per `LoadState` case, with the flags the same actions left behind.
    static let everyCase: [(name: String, state: LoadScreenState)] = [
        ("idle", LoadScreenState()),
        (
            "loading",
            LoadScreenState(
                load: .loading(previous: ["a", "b"]),
                flags: FlagsState(isLoading: true, items: ["late"], error: "offline"))
        ),
        ("loaded", LoadScreenState(load: .loaded(["a", "b"]), flags: FlagsState(items: ["a", "b"]))),
        (
            "failed",
            LoadScreenState(
                load: .failed("offline", previous: ["a", "b"]), flags: FlagsState(items: ["a", "b"], error: "offline"),
                failNext: true)
        ),
    ]

    @Test(arguments: everyCase.map(\.name), sizes)
    func eachCaseRenders(name: String, size: Size) throws {
        let screen = try #require(Self.everyCase.first { $0.name == name }?.state)
        let app = AppState(screen: .load, transfers: DashboardFixtures.screen(), load: screen)
        assertSnapshot(AppView.render(app, size: size), named: "load-\(name)-\(size)")
    }

    /// `r` is an intent the machine judges; the fail switch is used up once the machine records the request
    /// it was for.
    @Test func refreshAsksTheMachineForARequestThatUsesUpFailNext() {
        let machine = LoadMachine()
        var state = LoadScreenState(failNext: true)
        #expect(LoadFeature.reduce(&state, .refresh) == [.refresh(fails: true)])
        #expect(state == LoadScreenState(failNext: true))
        machine.apply(.refreshTapped)
        #expect(LoadFeature.reduce(&state, .recordsChanged(machine.engine.firstBatch)) == [])
        #expect(
            state
                == LoadScreenState(
                    flags: FlagsState(isLoading: true), requests: 1,
                    tally: RecordTally(lastSequence: 1, stale: 0, invalid: 0)))
    }

    /// Before the fix a refresh while loading sent a second request; the transition function says `stay`, so
    /// the machine starts none when the intent meets it, and the help bar does not offer `r`.
    @Test func aRefreshWhileLoadingStartsNoSecondRequest() {
        let runtime = LoadRuntime(server: LoadServer(scheduler: ManualClock()))
        runtime.run(.refresh(fails: true))
        runtime.run(.refresh(fails: false))
        #expect(runtime.machine.engine.history.map(\.outcome) == [.moved, .stayed])
        let state = LoadScreenState(load: .loading(previous: nil), failNext: true)
        #expect(LoadFeature.bindings.barHelp(in: state).map(\.key) == ["f"])
    }

    @Test func theFlagsHearEveryRecordedActionOnceTheStaleOneToo() {
        let machine = LoadMachine()
        machine.apply(.refreshTapped)
        machine.apply(.failed("offline"))
        machine.engine.send(.succeeded(["late"]))
        var state = LoadScreenState()
        #expect(LoadFeature.reduce(&state, .recordsChanged(machine.engine.firstBatch)) == [])
        #expect(LoadFeature.reduce(&state, .recordsChanged(machine.engine.firstBatch)) == [])
        #expect(
            state
                == LoadScreenState(
                    flags: FlagsState(items: ["late"], error: "offline"), requests: 1,
                    tally: RecordTally(lastSequence: 3)))
    }

    @Test func theSeedsSequenceLeavesTheFlagsImpossibleWhereTheEnumIsNot() {
        // refresh, success, refresh, failure, late success, refresh (seed 002), through the flag handlers.
        var flags = FlagsState()
        var load = LoadState.idle
        let actions: [LoadAction] = [
            .refreshTapped, .succeeded(["a", "b"]), .refreshTapped, .failed("offline"), .succeeded(["late"]),
            .refreshTapped,
        ]
        for action in actions {
            flags = LoadFeature.flags(flags, after: action)
            load = LoadState.reduce(load, action)
        }
        #expect(load == .loading(previous: ["a", "b"]))
        #expect(flags == FlagsState(isLoading: true, items: ["late"], error: "offline"))
        #expect(flags.isImpossible)
        #expect(LoadFeature.combinationName(flags) == "isLoading + items + error")
    }

    @Test func theLateKeyAppliesOnlyAfterAFailure() {
        #expect(LoadFeature.bindings.action(for: .character("l"), in: LoadScreenState()) == nil)
        let failed = LoadScreenState(load: .failed("offline", previous: nil))
        #expect(LoadFeature.bindings.action(for: .character("l"), in: failed) == .deliverLateResponse)
        #expect(LoadFeature.bindings.barHelp(in: failed).map(\.key) == ["r", "f", "l"])
        #expect(LoadFeature.bindings.barHelp(in: LoadScreenState()).map(\.key) == ["r", "f"])
    }

    @Test func theLateKeyAsksTheServerToAnswerAgain() {
        var state = LoadScreenState(load: .failed("offline", previous: nil))
        #expect(LoadFeature.reduce(&state, .deliverLateResponse) == [.answerLate])
        #expect(state == LoadScreenState(load: .failed("offline", previous: nil)))
    }
}

/// The load request as the machine's `whileIn` work on a manual scheduler; nothing here sleeps.
@Suite(.timeLimit(.minutes(1))) struct LoadEffectRunnerTests {
    /// Waits until the request's work is set up and has scheduled its answer.
    static func settle(_ runner: LoadRuntime, _ scheduler: ManualClock) async {
        await scheduler.settle { runner.isSetUp && scheduler.pendingCount > 0 }
    }

    @Test func theRequestAnswersThroughItsRunAfterTheLatency() async {
        let scheduler = ManualClock()
        let runner = LoadRuntime(server: LoadServer(scheduler: scheduler, latency: .milliseconds(200)))
        runner.run(.refresh(fails: true))
        await Self.settle(runner, scheduler)
        scheduler.advance(by: .milliseconds(199))
        #expect(runner.machine.state == .loading(previous: nil))
        scheduler.advance(by: .milliseconds(1))
        #expect(runner.machine.state == .failed("offline", previous: nil))
    }

    /// Before the fix the late response carried no identity and went to the machine as a fresh action.
    @Test func aFirstRequestsLateResponseDiesInTheMachineAsStale() async {
        let scheduler = ManualClock()
        let runner = LoadRuntime(server: LoadServer(scheduler: scheduler))
        runner.run(.refresh(fails: true))
        await Self.settle(runner, scheduler)
        scheduler.advance(by: .seconds(1))
        runner.run(.answerLate)
        let last = runner.machine.engine.history.last
        #expect(last?.event == .succeeded(LoadServer.lateItems))
        #expect(last?.outcome == .stale)
        #expect(runner.machine.state == .failed("offline", previous: nil))
    }
}
