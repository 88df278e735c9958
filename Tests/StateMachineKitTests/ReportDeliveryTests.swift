import Dispatch
import Foundation
import Support
import Testing

@testable import StateMachineKit

/// What a sink may do (issue 25): read its machine, send to any machine — several machines whose sinks send to
/// one another, fed by several threads each, all finish — and block, while one `send` delivers its own reports
/// and a bounded number of other senders' before handing the delivery over.
@Suite struct ReportDeliveryTests {
    typealias Machine = StateMachine<Int, Int>

    /// Starts `body(index)` on `count` threads of their own; the result waits for them and says whether they
    /// all finished within a minute (if not, a deadlock, they are left behind). It waits on a thread of its own
    /// too, never holding one of the cooperative pool's few threads, which the other tests need meanwhile.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> @Sendable () async -> Bool {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                body(index)
                group.leave()
            }.start()
        }
        return { await DetachedThread.value(name: "join") { group.wait(timeout: .now() + .seconds(60)) == .success } }
    }

    /// Machine `i` of `count`: its trace sink forwards every producer's event (≥ 0) to machine `i + 1` as a
    /// negative one, which is not forwarded again; `producers` threads per machine send `events` each.
    @Test(.serialized, arguments: [2, 3], 0..<25)
    func machinesWhoseSinksSendToOneAnotherFinish(count: Int, repetition: Int) async {
        let producers = 2
        let events = 2000
        let slots = (0..<count).map { _ in Late<Machine>() }
        let delivered = Locked([Int](repeating: 0, count: count))
        let machines = (0..<count).map { index in
            Machine(
                initial: 0, label: "ring\(index)", historyLimit: 2 * producers * events,
                reporter: Reporter { report in
                    delivered.withLock { $0[index] += 1 }
                    guard let event = Int(report.metadata["event"] ?? ""), event >= 0 else { return }
                    slots[(index + 1) % count].value?.send(-event - 1)
                }
            ) { _, event in .update(event) }
        }
        for (slot, machine) in zip(slots, machines) { slot.value = machine }
        let join = Self.onThreads(count * producers) { thread in
            let machine = machines[thread % count]
            for index in 0..<events { machine.send(thread * events + index) }
        }
        let finished = await join()
        #expect(finished)
        guard finished else { return }
        for (index, machine) in machines.enumerated() {
            let own = (0..<producers).flatMap { producer in
                let thread = producer * count + index
                return (thread * events)..<((thread + 1) * events)
            }
            let previous = (index + count - 1) % count
            let forwarded = (0..<producers).flatMap { producer in
                let thread = producer * count + previous
                return ((thread * events)..<((thread + 1) * events)).map { -$0 - 1 }
            }
            #expect(machine.history.map(\.event).sorted() == (own + forwarded).sorted())
        }
        #expect(delivered.withLock { $0 } == Array(repeating: 2 * producers * events, count: count))
    }

    /// A sink blocks on the first report while four other threads send; once it is released, the first
    /// `send` delivers its own report and at most ``StateMachine/ReportQueue/handOverAfter`` others, then hands over.
    @Test(.timeLimit(.minutes(1))) func oneSendDeliversABoundedNumberOfOtherSendersReports() async {
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let deliveries = Locked<[(event: Int, thread: pthread_t)]>([])
        let machine = Machine(
            initial: 0, label: "handover", historyLimit: 1000,
            reporter: Reporter { report in
                let event = Int(report.metadata["event"] ?? "") ?? -1
                deliveries.withLock { $0.append((event, pthread_self())) }
                if event == 0 {
                    inside.signal()
                    release.wait()
                }
            }
        ) { _, event in .update(event) }
        let records = machine.records()
        let first = Locked<pthread_t?>(nil)
        let producersGo = DispatchSemaphore(value: 0)
        let join = Self.onThreads(5) { thread in
            if thread == 0 {
                first.withLock { $0 = pthread_self() }
                machine.send(0)
            } else {
                producersGo.wait()
                for index in 0..<200 { machine.send(thread * 1000 + index) }
            }
        }
        inside.wait()
        for _ in 1...4 { producersGo.signal() }
        // The other four have queued reports behind the blocked sink, one each: every producer's first event
        // is recorded and noted under one lock, and its `send` then waits for the note to be taken.
        for await batch in records where batch.records.last?.sequence ?? 0 >= 5 { break }
        #expect(machine.core.withLock { $0.reports.notes.count } == 4)
        release.signal()
        #expect(await join())
        let (events, threads) = deliveries.withLock { ($0.map(\.event), $0.map(\.thread)) }
        #expect(events == machine.history.map(\.event))
        #expect(events.count == 801)
        let firstThread = first.withLock { $0 }
        let deliveredByFirst = threads.filter { thread in firstThread.map { pthread_equal($0, thread) != 0 } ?? false }
        #expect(deliveredByFirst.count <= 1 + Machine.ReportQueue.handOverAfter)
    }
}
