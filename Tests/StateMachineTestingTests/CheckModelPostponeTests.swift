import StateMachineKit
import Testing

@testable import StateMachineTesting

/// A printer that holds print jobs while offline: each is postponed until it connects.
private enum Printer: Hashable {
    case offline
    case online(printed: Int)
}

private enum PrinterEvent: Hashable, CaseIterable {
    case connect, disconnect, print
}

private func printer(_ state: Printer, _ event: PrinterEvent) -> Transition<Printer, PrinterEvent> {
    switch (state, event) {
    case (.offline, .connect): .to(.online(printed: 0))
    case (.offline, .print): .postpone
    case (.offline, .disconnect), (.online, .connect): .ignore
    case (.online, .disconnect): .to(.offline)
    case (.online(let printed), .print): printed < 3 ? .update(.online(printed: printed + 1)) : .stay
    }
}

/// The tray holds two pages: a third is the planted bug.
private func trayHolds(_ state: Printer) -> Bool {
    if case .online(let printed) = state { return printed <= 2 }
    return true
}

@Suite struct CheckModelPostponeTests {
    @Test func retriedEventsAreCheckedAfterTheMoveThatRetriesThem() {
        let trace = runPure(
            from: Printer.offline, [.print, .print, .print, .connect], transition: printer, invariant: trayHolds)
        #expect(trace.states == [.offline, .offline, .offline, .online(printed: 3)])
        #expect(trace.failure == "the invariant does not hold after retried print after event 4")
    }

    @Test func eventsPastThePostponeLimitAreDroppedAsTheEngineDropsThem() {
        let trace = runPure(
            from: Printer.offline, [.print, .print, .print, .connect], transition: printer, invariant: trayHolds,
            postponeLimit: 2)
        #expect(trace.states == [.offline, .offline, .offline, .online(printed: 2)])
        #expect(trace.failure == nil)
    }

    @Test func thePureRunAgreesWithTheEngine() {
        let sequence: [PrinterEvent] = [.print, .disconnect, .print, .connect, .print, .disconnect, .print, .connect]
        let machine = StateMachine(initial: Printer.offline, label: "printer", postponeLimit: 1) { printer($0, $1) }
        var engineStates: [Printer] = []
        for event in sequence {
            machine.send(event)
            engineStates.append(machine.state)
        }
        let trace = runPure(
            from: Printer.offline, sequence, transition: printer, invariant: { _ in true }, postponeLimit: 1)
        #expect(trace.states == engineStates)
    }

    @Test func checkModelFindsTheShortestFailureOfAPostponingMachine() {
        let found = checkModel(
            from: Printer.offline, events: PrinterEvent.allCases, transition: printer, invariant: trayHolds,
            seed: 7)
        #expect(found?.events == [.connect, .print, .print, .print])
        #expect(found?.states == [.online(printed: 0), .online(printed: 1), .online(printed: 2), .online(printed: 3)])
        #expect(found?.failure == "the invariant does not hold after event 4 (print)")
    }

    @Test func checkModelPassesAPostponingMachineThatKeepsItsRule() {
        #expect(
            checkModel(
                from: Printer.offline, events: PrinterEvent.allCases, transition: printer,
                invariant: { state in
                    if case .online(let printed) = state { return printed <= 3 }
                    return true
                }, seed: 7) == nil)
    }
}
