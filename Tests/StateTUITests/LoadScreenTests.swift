import ScreenStates
import StateTUI
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

    @Test func refreshChangesTheFlagsHereAndAsksTheMachineAndTheServer() {
        var state = LoadScreenState(failNext: true)
        let effects = LoadFeature.reduce(&state, .refresh)
        #expect(effects == [.deliver(.refreshTapped), .request(fails: true)])
        #expect(state == LoadScreenState(flags: FlagsState(isLoading: true), requests: 1))
    }

    @Test func aResponseGoesToTheFlagsAndTheMachine() {
        var state = LoadScreenState(load: .loading(previous: nil), flags: FlagsState(isLoading: true), requests: 1)
        #expect(LoadFeature.reduce(&state, .serverResponded(.succeeded(["a"]))) == [.deliver(.succeeded(["a"]))])
        #expect(
            state == LoadScreenState(load: .loading(previous: nil), flags: FlagsState(items: ["a"]), requests: 1))
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
        #expect(LoadFeature.keymap(.character("l"), LoadScreenState()) == nil)
        let failed = LoadScreenState(load: .failed("offline", previous: nil))
        #expect(LoadFeature.keymap(.character("l"), failed) == .deliverLateResponse)
        #expect(LoadFeature.help(failed).map(\.key) == ["r", "f", "l"])
        #expect(LoadFeature.help(LoadScreenState()).map(\.key) == ["r", "f"])
    }

    @Test func aLateResponseIsSentToTheMachineWhichIgnoresIt() {
        var state = LoadScreenState(
            load: .failed("offline", previous: ["a"]), flags: FlagsState(items: ["a"], error: "offline"))
        #expect(LoadFeature.reduce(&state, .deliverLateResponse) == [.deliver(.succeeded(["late"]))])
        let machine = LoadMachine()
        machine.apply(.refreshTapped)
        machine.apply(.failed("offline"))
        #expect(machine.apply(.succeeded(["late"])) == .ignored)
    }

    @Test func theServerAnswersAfterItsLatency() {
        let scheduler = ManualScheduler()
        let runner = LoadEffectRunner(server: LoadServer(scheduler: scheduler, latency: .milliseconds(200)))
        let received = Recorded<LoadScreenAction>()
        let send = Send<LoadScreenAction> { received.append($0) }
        runner.run(.request(fails: true), send: send)
        scheduler.advance(by: .milliseconds(199))
        #expect(received.values == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(received.values == [.serverResponded(.failed("offline"))])
    }

    @Test func deliveringTellsTheObservers() {
        let runner = LoadEffectRunner(server: LoadServer(scheduler: ManualScheduler()))
        let received = Recorded<LoadScreenAction>()
        runner.connect(Send { received.append($0) })
        runner.run(.deliver(.refreshTapped), send: Send { _ in })
        #expect(received.values == [.loadChanged(.idle), .loadChanged(.loading(previous: nil))])
    }
}
