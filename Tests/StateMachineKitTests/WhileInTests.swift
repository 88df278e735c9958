import StateMachineTesting
import Testing

@testable import StateMachineKit

@Suite struct WhileInTests {
    typealias Machine = StateMachine<Download, DownloadEvent>

    /// Work that announces its start, waits to be cancelled, then announces the cause it read.
    static func probe(_ signals: Signals<String>) -> @Sendable (Machine.Sender) async -> Void {
        { sender in
            signals.post("started visit \(sender.visit)")
            await untilCancelled()
            signals.post("cancelled visit \(sender.visit): \(sender.cancellationCause.map(\.rawValue) ?? "none")")
        }
    }

    /// A download machine reporting to `log` with the probe as its running work, started: returns once the
    /// probe has announced the start of visit 2.
    static func startedWithProbe(_ signals: Signals<String>, log: ReportLog = ReportLog()) async -> Machine {
        let machine = Machine(initial: .idle, label: "dl", reporter: log.reporter, transition: download)
        machine.whileIn(where: \.isRunning, label: "transfer", probe(signals))
        machine.send(.start)
        #expect(await signals.next() == ["started visit 2"])
        return machine
    }

    @Test func workStartsOnEntryAndIsCancelledWithStateExitedWhenTheVisitEnds() async {
        let log = ReportLog()
        let signals = Signals<String>()
        let machine = await Self.startedWithProbe(signals, log: log)
        machine.send(.finish)
        #expect(await signals.next() == ["cancelled visit 2: stateExited"])
        log.expectOnly(
            Report(
                label: "dl", level: .debug, name: "statemachine.cancelled",
                message: "cancelled transfer of visit 2: stateExited",
                metadata: [
                    "work": "transfer", "visit": "2", "cause": "stateExited", "state": "running(percent: 0)",
                ]))
    }

    @Test func workStartsAtOnceWhenRegisteredInAMatchingState() async {
        let signals = Signals<String>()
        let machine = Machine(initial: .running(percent: 5), label: "dl", transition: download)
        machine.whileIn(.running(percent: 5), label: "exact", Self.probe(signals))
        #expect(await signals.next() == ["started visit 1"])
        machine.stop()
        #expect(await signals.next() == ["cancelled visit 1: machineStopped"])
    }

    /// A machine let go ends its running work with cause `machineStopped`: `deinit` stops a machine nobody
    /// stopped, and has nothing left to end in one that `stop()` ended before (nothing keeps a machine alive but
    /// its owners: its senders hold it weakly).
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func workEndsWhenTheMachineIsLetGo(stoppedFirst: Bool) async {
        let signals = Signals<String>()
        var machine: Machine? = await Self.startedWithProbe(signals)
        if stoppedFirst { machine?.stop() }
        machine = nil
        #expect(await signals.next() == ["cancelled visit 2: machineStopped"])
    }

    @Test func workRestartsOnEveryEntryIncludingReEntry() async {
        let signals = Signals<String>()
        let machine = await Self.startedWithProbe(signals)
        machine.send(.restart)
        // Both happen; their order across two tasks is not fixed.
        #expect(Set(await signals.next(2)) == ["cancelled visit 2: stateExited", "started visit 3"])
        machine.send(.fail)
        #expect(await signals.next() == ["cancelled visit 3: stateExited"])
        machine.send(.retry)
        #expect(await signals.next() == ["started visit 5"])
        machine.stop()
        #expect(await signals.next() == ["cancelled visit 5: machineStopped"])
    }

    @Test func acrossUpdatesWorkRunsWhileThePredicateHoldsAndStopsTheMomentItDoesNot() async {
        let log = ReportLog()
        let signals = Signals<String>()
        let machine = await Self.startedWithProbe(signals, log: log)
        machine.send(.progress(30))
        machine.send(.progress(60))
        #expect(log.named("statemachine.cancelled") == [])
        machine.send(.pause)
        #expect(
            log.named("statemachine.cancelled").map(\.metadata) == [
                ["work": "transfer", "visit": "2", "cause": "stateExited", "state": "running(percent: 60)"]
            ])
        #expect(await signals.next() == ["cancelled visit 2: stateExited"])
        machine.send(.resume)
        #expect(await signals.next() == ["started visit 2"])
        #expect(machine.visit == 2)
        machine.stop()
        #expect(await signals.next() == ["cancelled visit 2: machineStopped"])
    }

    @Test func exactStateWorkIsCancelledByAnUpdateToAnotherValue() async {
        let signals = Signals<String>()
        let machine = Machine(initial: .running(percent: 0), label: "dl", transition: download)
        machine.whileIn(.running(percent: 0), label: "at zero", Self.probe(signals))
        #expect(await signals.next() == ["started visit 1"])
        machine.send(.progress(1))
        #expect(await signals.next() == ["cancelled visit 1: stateExited"])
    }

    @Test func workSendsThroughItsSender() async {
        let machine = Machine(initial: .idle, label: "dl", transition: download)
        machine.whileIn(where: \.isRunning, label: "transfer") { sender in
            sender.send(.progress(50))
            sender.send(.finish)
        }
        let tester = MachineTester(machine)
        tester.send(.start, .moved, .running(percent: 0))
        await tester.receive(.progress(50), .updated, .running(percent: 50))
        await tester.receive(.finish, .moved, .done)
        tester.finish()
    }

    @Test func whileInAfterStopNeverStarts() {
        let machine = Machine(initial: .running(percent: 0), label: "dl", transition: download)
        machine.stop()
        // The decision itself: a stopped core registers nothing and starts nothing.
        let effects = machine.core.withLock { core in
            core.register(label: "late", predicate: \.isRunning, work: { _ in })
        }
        #expect(effects == nil)
    }

    /// Each activation is its own run with its own sender: the run an `.update` ended stays ended when
    /// the next `.update` starts a new one in the same visit.
    @Test func everyActivationWithinAVisitHasItsOwnSender() async {
        let machine = Machine(initial: .idle, label: "dl", transition: download)
        let senders = Signals<Machine.Sender>()
        machine.whileIn(where: \.isRunning, label: "transfer") { sender in
            senders.post(sender)
            await untilCancelled()
        }
        machine.send(.start)
        let first = await senders.next()[0]
        machine.send(.pause)
        machine.send(.resume)
        let second = await senders.next()[0]
        #expect([first.isCurrent, second.isCurrent] == [false, true])
        #expect([first.cancellationCause, second.cancellationCause] == [.stateExited, nil])
        #expect([first.send(.progress(99)), second.send(.progress(50))] == [.stale, .updated])
        #expect(machine.state == .running(percent: 50))
        machine.stop()
        #expect(second.cancellationCause == .machineStopped)
    }

    /// A run is attached to its task after the lock is released; a run that ended before that moment
    /// gets its task cancelled at once, so no work outlives its run.
    @Test func aRunEndedBeforeItsTaskWasAttachedIsCancelledWhenAttached() async {
        let machine = Machine(initial: .idle, label: "dl", transition: download)
        let effects = machine.core.withLock { core in
            core.register(label: "transfer", predicate: { _ in true }, work: { _ in })
        }
        let run = effects?.start.first?.run
        #expect(run?.visit == 1)
        machine.stop()
        let task = Task<Void, Never> { await untilCancelled() }
        let returned = machine.core.withLock { core in core.attach(run: run?.id ?? -1, task: task) }
        #expect(returned == .cancel(task))
        #expect(run?.cause == .machineStopped)
        task.cancel()
        await task.value
    }
}
