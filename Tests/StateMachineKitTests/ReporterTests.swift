import Foundation
import StateMachineKit
import Support
import Testing

@Suite struct ReporterTests {
    typealias Machine = StateMachine<Turnstile, TurnstileEvent>

    @Test func aReporterMaySendAndReadStateWithoutDeadlock() {
        let machineSlot = Late<Machine>()
        let seen = Late<[String]>()
        let reporter = Reporter(minimumLevel: .error) { report in
            guard let machine = machineSlot.value else { return }
            // Reading and sending from inside the report: the machine's lock is not held here.
            seen.value = (seen.value ?? []) + ["\(report.name) in \(machine.state)"]
            machine.send(.repair)
        }
        let machine = Machine(initial: .broken, label: "gate", reporter: reporter, transition: turnstile)
        machineSlot.value = machine
        #expect(machine.send(.kick) == .invalid("already broken"))
        #expect(machine.state == .locked)
        #expect(seen.value == ["statemachine.invalid in broken"])
        #expect(machine.history.map(\.event) == [.kick, .repair])
    }

    @Test(.serialized, arguments: 0..<300)
    func reentrantReportersStayCorrectUnderConcurrentSenders(repetition: Int) async {
        let machineSlot = Late<Machine>()
        let reporter = Reporter(minimumLevel: .error) { _ in
            if let machine = machineSlot.value, machine.state == .broken { machine.send(.repair) }
        }
        let machine = Machine(
            initial: .locked, label: "gate", historyLimit: 1000, reporter: reporter, transition: turnstile)
        machineSlot.value = machine
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<8 {
                group.addTask {
                    for step in 0..<25 {
                        machine.send([.kick, .kick, .coin, .push][(sender + step) % 4])
                    }
                }
            }
        }
        let history = machine.history
        // Applied one at a time: every record starts where the previous one ended, none is missing.
        #expect(history.map(\.sequence) == Array(1...history.count))
        #expect(zip(history, history.dropFirst()).allSatisfy { $0.after == $1.before })
        #expect(history.count >= 200)
        #expect(history.last?.after == machine.state)
    }

    /// Eight senders race; the reporter reads the state and, now and then, sends from inside a report.
    /// Reports are delivered outside the lock, yet in exactly the order the machine applied the events,
    /// and the reporter's own sends neither deadlock nor jump the queue.
    @Test(.serialized, arguments: 0..<20)
    func reportsReachTheReporterInTheOrderTheEventsWereApplied(repetition: Int) async {
        let machineSlot = Late<StateMachine<Int, Int>>()
        let delivered = Locked<[Int]>([])
        let reporter = Reporter { report in
            guard let machine = machineSlot.value, let event = Int(report.metadata["event"] ?? "") else { return }
            _ = machine.state
            if event >= 0, event.isMultiple(of: 97) { machine.send(-event - 1) }
            delivered.withLock { $0.append(event) }
        }
        let machine = StateMachine<Int, Int>(initial: 0, label: "order", historyLimit: 4000, reporter: reporter) {
            _, event in .update(event)
        }
        machineSlot.value = machine
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<8 {
                group.addTask { for index in 0..<250 { machine.send(sender * 1000 + index) } }
            }
        }
        let applied = machine.history.map(\.event)
        #expect(applied.count == 2000 + applied.filter { $0 < 0 }.count)
        #expect(applied.filter { $0 < 0 }.count == applied.filter { $0 >= 0 && $0.isMultiple(of: 97) }.count)
        #expect(delivered.withLock { $0 } == applied)
    }

    /// Counts how often the states of a machine are printed.
    final class PrintCounter: Sendable {
        let count = Locked(0)
    }

    /// A number that counts its own printing, to see whether a report was formatted.
    struct Printed: Hashable, Sendable, CustomStringConvertible {
        var value: Int
        let counter: PrintCounter

        static func == (lhs: Printed, rhs: Printed) -> Bool { lhs.value == rhs.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }

        var description: String {
            counter.count.withLock { $0 += 1 }
            return "\(value)"
        }
    }

    @Test func tracingToASinkThatCountsByNameFormatsNothingUntilASinkReads() {
        let counter = PrintCounter()
        let names = Locked<[String: Int]>([:])
        let kept = Locked<[Report]>([])
        let machine = StateMachine<Printed, Int>(
            initial: Printed(value: 0, counter: counter), label: "count",
            reporter: Reporter { report in
                names.withLock { $0[report.name, default: 0] += 1 }
                kept.withLock { $0.append(report) }
            }
        ) { state, amount in .update(Printed(value: state.value + amount, counter: state.counter)) }
        for _ in 0..<100 { machine.send(1) }
        #expect(names.withLock { $0 } == ["statemachine.transition": 100])
        #expect(counter.count.withLock { $0 } == 0)
        let first = kept.withLock { $0[0] }
        #expect(first.message == "0 + 1 -> 1 (updated)")
        // Made on that read, for this report only: two states in the message, two in the metadata.
        #expect(counter.count.withLock { $0 } == 4)
        #expect(first.metadata == ["state": "0", "event": "1", "visit": "1", "after": "1"])
    }

    /// Issue 25: `line` made the text three times, and `message` and `metadata` once each on every read.
    @Test func aSinkReadingLineMessageAndMetadataFormatsTheReportOnce() {
        let counter = PrintCounter()
        let read = Locked<[String]>([])
        let machine = StateMachine<Printed, Int>(
            initial: Printed(value: 0, counter: counter), label: "count",
            reporter: Reporter { report in
                read.withLock { $0 += [report.line, report.message, report.metadata["after"] ?? "", report.line] }
            }
        ) { state, amount in .update(Printed(value: state.value + amount, counter: state.counter)) }
        machine.send(1)
        machine.send(2)
        let line = { (before: Int, amount: Int) in
            "trace count statemachine.transition: \(before) + \(amount) -> \(before + amount) (updated) "
                + "[after=\(before + amount) event=\(amount) state=\(before) visit=1]"
        }
        #expect(
            read.withLock { $0 } == [
                line(0, 1), "0 + 1 -> 1 (updated)", "1", line(0, 1),
                line(1, 2), "1 + 2 -> 3 (updated)", "3", line(1, 2),
            ])
        // Two reports, each made once: two states in the message and two in the metadata.
        #expect(counter.count.withLock { $0 } == 8)
    }

    @Test func aDescribedReportIsDescribedOnceWhateverASinkReads() {
        let described = Locked(0)
        let report = Report(label: "a", level: .info, name: "n") {
            described.withLock { $0 += 1 }
            return ("m", ["k": "v"])
        }
        let read = [report.line, report.message, report.metadata["k"] ?? "", report.line]
        #expect(read == ["info a n: m [k=v]", "m", "v", "info a n: m [k=v]"])
        #expect(described.withLock { $0 } == 1)
    }

    /// A state too large for a report's inline storage, so that its reports' texts are boxed.
    struct Wide: Hashable, Sendable, CustomStringConvertible {
        var total: Int
        var padding: [Int] = []
        var more = (0, 0, 0)

        static func == (lhs: Wide, rhs: Wide) -> Bool { lhs.total == rhs.total && lhs.padding == rhs.padding }
        func hash(into hasher: inout Hasher) { hasher.combine(total) }
        var description: String { "\(total)" }
    }

    @Test func aReportASinkKeepsKeepsItsOwnTextWhileLaterReportsReuseTheirBox() {
        let read = Locked<[String]>([])
        let kept = Locked<[Report]>([])
        let machine = StateMachine<Wide, Int>(
            initial: Wide(total: 0), label: "wide",
            reporter: Reporter { report in
                read.withLock { $0.append(report.message) }
                if let event = report.metadata["event"], ["2", "5"].contains(event) {
                    kept.withLock { $0.append(report) }
                }
            }
        ) { state, amount in .update(Wide(total: state.total + amount)) }
        for amount in 1...6 { machine.send(amount) }
        #expect(
            read.withLock { $0 } == [
                "0 + 1 -> 1 (updated)", "1 + 2 -> 3 (updated)", "3 + 3 -> 6 (updated)", "6 + 4 -> 10 (updated)",
                "10 + 5 -> 15 (updated)", "15 + 6 -> 21 (updated)",
            ])
        #expect(
            kept.withLock { $0 } == [
                Report(
                    label: "wide", level: .trace, name: "statemachine.transition", message: "1 + 2 -> 3 (updated)",
                    metadata: ["state": "1", "event": "2", "visit": "1", "after": "3"]),
                Report(
                    label: "wide", level: .trace, name: "statemachine.transition",
                    message: "10 + 5 -> 15 (updated)",
                    metadata: ["state": "10", "event": "5", "visit": "1", "after": "15"]),
            ])
    }

    /// Plain values (`Int`, whose records destroy freely): the box is refilled under the lock without being
    /// emptied first, and a kept report still keeps its own text.
    @Test func aMachineOfPlainValuesReusesItsBoxWhileASinkKeepsEarlierReports() {
        let read = Locked<[String]>([])
        let kept = Locked<[Report]>([])
        let machine = StateMachine<Int, Int>(
            initial: 0, label: "plain",
            reporter: Reporter { report in
                // The second report is kept unread: its text is made only after later reports reused a box.
                let count = read.withLock { read in
                    read.append(read.count == 1 ? "kept" : report.message)
                    return read.count
                }
                if count == 2 { kept.withLock { $0.append(report) } }
            }
        ) { state, amount in .update(state + amount) }
        for amount in 1...4 { machine.send(amount) }
        #expect(
            read.withLock { $0 } == [
                "0 + 1 -> 1 (updated)", "kept", "3 + 3 -> 6 (updated)", "6 + 4 -> 10 (updated)",
            ])
        #expect(
            kept.withLock { $0 } == [
                Report(
                    label: "plain", level: .trace, name: "statemachine.transition", message: "1 + 2 -> 3 (updated)",
                    metadata: ["state": "1", "event": "2", "visit": "1", "after": "3"])
            ])
    }

    @Test func aReporterAboveTheLevelOfEveryReportBuildsNone() {
        let counter = PrintCounter()
        let calls = Locked(0)
        let machine = StateMachine<Printed, Int>(
            initial: Printed(value: 0, counter: counter), label: "count",
            reporter: Reporter(minimumLevel: .error) { _ in calls.withLock { $0 += 1 } }
        ) { state, amount in .update(Printed(value: state.value + amount, counter: state.counter)) }
        for _ in 0..<100 { machine.send(1) }
        let calledAndPrinted: [Int] = [calls.withLock { $0 }, counter.count.withLock { $0 }]
        #expect(calledAndPrinted == [0, 0])
    }

    @Test func minimumLevelFiltersBeforeTheSink() {
        let log = ReportLog()
        let quiet = Reporter(minimumLevel: .error) { log.reporter.report($0) }
        let machine = Machine(initial: .unlocked, label: "gate", reporter: quiet, transition: turnstile)
        machine.send(.coin)
        machine.send(.push)
        machine.send(.repair)
        #expect(log.all.map(\.name) == ["statemachine.invalid"])
        #expect(Report.Level.allCases.filter(quiet.accepts) == [.error, .critical])
    }

    @Test func everyAcceptedEventIsTracedAsATransition() {
        let log = ReportLog()
        let machine = Machine(initial: .locked, label: "gate", reporter: log.reporter, transition: turnstile)
        machine.send(.coin)
        #expect(
            log.all == [
                Report(
                    label: "gate", level: .trace, name: "statemachine.transition",
                    message: "locked + coin -> unlocked (moved)",
                    metadata: ["state": "locked", "event": "coin", "visit": "1", "after": "unlocked"])
            ])
    }

    @Test func readableLinesNameLevelLabelNameMessageAndSortedMetadata() {
        let report = Report(
            label: "gate", level: .error, name: "statemachine.invalid", message: "kick is invalid in broken",
            metadata: ["visit": "3", "event": "kick"])
        #expect(report.line == "error gate statemachine.invalid: kick is invalid in broken [event=kick visit=3]")
        #expect(Report(label: "a", level: .info, name: "n", message: "m").line == "info a n: m")
    }

    @Test func jsonLinesWritesOneObjectPerReport() throws {
        let pipe = Pipe()
        let reporter = Reporter.jsonLines(to: pipe.fileHandleForWriting.fileDescriptor, minimumLevel: .notice)
        let machine = Machine(initial: .broken, label: "gate", reporter: reporter, transition: turnstile)
        machine.send(.coin)
        let stale = machine.sendAndBind(.kick).sender
        machine.send(.repair)
        stale.send(.coin)
        try pipe.fileHandleForWriting.close()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
            text == """
                {"label":"gate","level":"error","message":"kick is invalid in broken: already broken","metadata":{"event":"kick","reason":"already broken","state":"broken","visit":"1"},"name":"statemachine.invalid"}
                {"label":"gate","level":"notice","message":"dropped coin sent for visit 1; the machine is in visit 2","metadata":{"cause":"stateExited","event":"coin","reason":"visit 1 ended","sender_visit":"1","state":"locked","visit":"2"},"name":"statemachine.stale_event"}

                """)
        let decoded = try text.split(separator: "\n").map { try JSONDecoder().decode(Report.self, from: Data($0.utf8)) }
        #expect(decoded.map(\.name) == ["statemachine.invalid", "statemachine.stale_event"])
    }

    @Test func levelsAreOrderedLikeSwiftLog() {
        #expect(
            Report.Level.allCases.map(\.rawValue) == [
                "trace", "debug", "info", "notice", "warning", "error", "critical",
            ])
        #expect(Report.Level.allCases == Report.Level.allCases.sorted())
    }
}
