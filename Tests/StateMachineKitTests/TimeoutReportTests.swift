import Testing

@testable import StateMachineKit

/// A state timeout's event is reported like any other event, at its own level, and its firing is reported as
/// `statemachine.timeout` at debug level — whatever the reporter's minimum level (issue 25).
@Suite struct TimeoutReportTests {
    enum Alarm: Hashable, Sendable {
        case idle, armed, rang
    }

    /// What the alarm's timeout sends, and what the armed state makes of it.
    enum AlarmEvent: Hashable, Sendable {
        /// Arms a timeout that sends `expire`.
        case arm(Expiry)
        case expire(Expiry)
    }

    enum Expiry: Hashable, Sendable, CaseIterable {
        /// Invalid in `armed` (error level).
        case invalid
        /// Moves to `rang` (trace level).
        case moves
        /// Postponed with a `postponeLimit` of 0, so dropped (warning level).
        case overflows
    }

    typealias Machine = StateMachine<Alarm, AlarmEvent>

    @Sendable static func alarm(_ state: Alarm, _ event: AlarmEvent) -> Transition<Alarm, AlarmEvent> {
        switch (state, event) {
        case (.idle, .arm(let expiry)): .to(.armed, timeout: StateTimeout(after: .seconds(1), send: .expire(expiry)))
        case (.armed, .expire(.invalid)): .invalid("the alarm has not rung")
        case (.armed, .expire(.moves)): .to(.rang)
        case (.armed, .expire(.overflows)): .postpone
        case (.idle, .expire), (.armed, .arm), (.rang, _): .ignore
        }
    }

    /// Every report of arming the alarm and of its timeout firing, for a reporter that takes them all.
    static func allReports(_ expiry: Expiry) -> [Report] {
        let arm = AlarmEvent.arm(expiry)
        let event = AlarmEvent.expire(expiry)
        let armed = Report(
            label: "alarm", level: .trace, name: Report.Name.transition,
            message: "idle + \(arm) -> armed (moved)",
            metadata: ["state": "idle", "event": "\(arm)", "visit": "1", "after": "armed"])
        let record =
            switch expiry {
            case .invalid:
                Report(
                    label: "alarm", level: .error, name: Report.Name.invalid,
                    message: "\(event) is invalid in armed: the alarm has not rung",
                    metadata: ["state": "armed", "event": "\(event)", "visit": "2", "reason": "the alarm has not rung"])
            case .moves:
                Report(
                    label: "alarm", level: .trace, name: Report.Name.transition,
                    message: "armed + \(event) -> rang (moved)",
                    metadata: ["state": "armed", "event": "\(event)", "visit": "2", "after": "rang"])
            case .overflows:
                Report(
                    label: "alarm", level: .warning, name: Report.Name.postponeOverflow,
                    message: "dropped \(event) in armed: 0 postponed events are already waiting",
                    metadata: [
                        "state": "armed", "event": "\(event)", "visit": "2", "reason": "postponeLimit 0 reached",
                    ])
            }
        let fired = Report(
            label: "alarm", level: .debug, name: Report.Name.timeout,
            message: "state timeout fired in armed: \(event)",
            metadata: ["state": "armed", "event": "\(event)", "visit": "2"])
        return [armed, record, fired]
    }

    @Test(
        arguments: [Report.Level.trace, .debug, .warning, .error],
        Expiry.allCases)
    func aTimeoutsEventIsReportedAtItsOwnLevel(minimumLevel: Report.Level, expiry: Expiry) {
        let log = ReportLog()
        let machine = Machine(
            initial: .idle, label: "alarm", postponeLimit: 0, clock: AnyClock(TestClock()),
            reporter: Reporter(minimumLevel: minimumLevel) { log.reporter.report($0) }, transition: Self.alarm)
        machine.send(.arm(expiry))
        let timer = machine.core.withLock { $0.work.timer?.id }
        // What the timer's task does once the clock reaches the deadline, run here so that it is over on return.
        _ = machine.deliver(.expire(expiry), origin: .timer(id: timer ?? -1, visit: 2))
        #expect(log.all == Self.allReports(expiry).filter { $0.level >= minimumLevel })
    }
}
