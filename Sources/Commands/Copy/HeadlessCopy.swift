import DashboardApp
import Dispatch
import FileTransfer
import MachineDrivers
import SeedModels
import StateMachineKit
import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `statetui copy --headless`: starts every transfer, prints a line per change that matters, and
/// waits until each one completed or failed, or until SIGINT, SIGTERM or SIGHUP stops them cleanly.
///
/// Every line is one line: file names and messages have their control characters escaped
/// (``DisplayText/escaped(_:limit:)``), and every transfer's final state is printed before the exit.
///
/// Transfers are taken from the session as the trees are read (``CopySession/next()``), at most
/// ``window`` at a time: once one settled, its line is printed, it is counted (only its size, and its
/// reason when it failed, are kept) and let go, and the next one is taken. So memory and open files stay
/// bounded whatever the number of files; the allocator's free pages are given back now and then
/// (``FreePages``), so the process's resident size stays bounded too.
///
/// The calling thread only waits and prints (it owns the non-`Sendable` output). The machines under way are in one
/// ``StateMachine/MachineSet``, added as they start and removed once settled, and one task reads the set's change feed
/// (``StateMachine/MachineSet/changes()``, which copies no record): it marks the machines that recorded and wakes the
/// thread through a semaphore; signals are polled every 50 ms. The thread then reads the current state of the machines
/// marked, and only those, so a burst of progress costs one look, not one line, and a change costs the same however
/// many transfers are under way; and a file costs no task of its own.
///
/// Lines are flushed as they are printed, so a reader following the output (live or through a pipe) sees
/// them at once and a kill -9 leaves the log so far. While copies run, a total line (``TransferTotals``)
/// is printed at most once per ``ProgressLines/totalInterval``; a summary ends the output.
enum HeadlessCopy {
    /// How many transfers are under way at once: enough to keep every ``CopySlots`` slot busy while the
    /// settled ones are collected.
    static let window = 4 * CopySlots.maximumPerProcess

    /// A transfer under way, its machine's index in the run's ``StateMachine/MachineSet``, and the state last
    /// printed for it.
    private struct Active {
        let transfer: CopyTransfer
        let index: Int
        var printed: TransferState?
    }

    /// Runs the session to its end, measuring its time on `clock`; returns 0 when every transfer completed,
    /// 1 when any failed, 130/143/129 after SIGINT/SIGTERM/SIGHUP (partials and journal kept for a restart). `started`
    /// is called with each transfer before it starts (an inspector registers its machine).
    static func run(
        _ session: CopySession, io: CommandIO, lines: ProgressLines = ProgressLines(),
        clock: some Clock<Duration> = ContinuousClock(), started onStart: (CopyTransfer) -> Void = { _ in }
    ) -> Int32 {
        precondition(DetachedThread.mayBlock, "a headless copy blocks its thread: run it on a thread of its own")
        let started = clock.now
        var run = Run(session: session, io: io, lines: lines)
        var lastTotal: Duration?
        let signals = StopRequest.watch()
        defer { signals.cancel() }
        let watcher = run.watch()
        defer { watcher.cancel() }
        while true {
            run.refill(onStart)
            let settled = run.printChanges(run.changedStates())
            let elapsed = started.duration(to: clock.now)
            let finished = run.exhausted && run.active.isEmpty
            if !finished, lines.isTotalDue(at: elapsed, lastPrinted: lastTotal) {
                io.writeOutput(run.totals().line(elapsed: elapsed) + "\n")
                io.flushOutput()
                lastTotal = elapsed
            }
            if let signal = signals.received {
                run.stopAll()
                run.printSummary(elapsed: started.duration(to: clock.now))
                io.writeError(
                    "statetui: interrupted by \(StopRequest.name(of: signal)); \(StopRequest.keptForTheNextRun)\n")
                return 128 + signal
            }
            if finished {
                for problem in session.finish() { io.writeError("statetui: \(problem)\n") }
                run.printLinks()
                run.printSummary(elapsed: started.duration(to: clock.now))
                break
            }
            // Only while nothing settled: a settled transfer makes room for the next at once.
            if settled == 0 || run.exhausted {
                // A signal handler cannot wake a semaphore safely, so the wait is bounded and the flag polled.
                _ = run.wake.wait(timeout: .now() + .milliseconds(50))
            }
        }
        return CopyExitStatus.report(failures: run.failures, unfinished: 0, of: run.done.files, io: io)
    }

    /// One headless run's transfers under way, what settled, and its output.
    private struct Run {
        let session: CopySession
        let io: CommandIO
        let lines: ProgressLines
        /// Signalled by the change feed's reader whenever a machine recorded.
        let wake = DispatchSemaphore(value: 0)
        /// The machines under way: added as they start, removed once settled.
        let machines = StateMachine<TransferModel, TransferEvent>.MachineSet()
        /// The machines (by index in ``machines``) the feed named as changed since their state was last read.
        let changed = ChangedMachines()
        var active: [Active] = []
        /// The settled transfers, counted.
        var done = TransferTotals()
        var failures: [(name: String, message: String)] = []
        /// True once the session gave its last transfer.
        var exhausted = false
        var settledSinceTrim = 0

        init(session: CopySession, io: CommandIO, lines: ProgressLines) {
            self.session = session
            self.io = io
            self.lines = lines
        }

        /// The settled transfers' totals and the active ones'.
        func totals() -> TransferTotals {
            let active = TransferTotals(
                active.map {
                    let status = $0.transfer.status
                    return (
                        phase: $0.transfer.machine.state, size: status.totalBytes,
                        alreadyThere: status.alreadyThere != nil
                    )
                })
            return active.adding(done)
        }

        /// The entries the session made itself get a line each: the symbolic links, FIFOs, sockets and devices as
        /// the walk meets them, the hard links once ``CopySession/finish()`` made them.
        func printLinks() {
            for entry in session.takeMadeEntries() { io.writeOutput("\(entry)\n") }
        }

        /// Takes transfers from the session until the window is full or the trees are read, and starts them.
        mutating func refill(_ onStart: (CopyTransfer) -> Void) {
            while !exhausted, active.count < window {
                guard let transfer = session.next() else {
                    exhausted = true
                    break
                }
                onStart(transfer)
                let engine = transfer.machine.engine
                // Read from the record after the start's: a running state before any progress prints nothing, so the
                // start's own record would only wake the feed's reader, and this thread, for a look that finds nothing
                // to print (half of the feed's wakes in a tree of small files).
                let index = machines.add(engine, after: engine.sequence + 1)
                active.append(Active(transfer: transfer, index: index))
                transfer.machine.send(.start)
            }
            for message in session.takeMessages() { io.writeError("statetui: \(message)\n") }
            printLinks()
        }

        /// Every active machine's state, read once, by its index in `active`.
        func snapshot() -> [(index: Int, state: TransferState)] {
            active.indices.map { ($0, active[$0].transfer.machine.state) }
        }

        /// Starts the one task that reads the machines' change feed, marking each machine that recorded and waking
        /// the waiting thread; cancelled at the run's end.
        func watch() -> Task<Void, Never> {
            let feed = machines.changes()
            return Task { [wake, changed] in
                for await indices in feed {
                    changed.mark(indices)
                    wake.signal()
                }
            }
        }

        /// The state of each active machine the feed named as changed since the last look, read once, by
        /// index in `active`, in order. A change after the read marks the machine again.
        ///
        /// `active` is in the order the machines were added, which is the order of their indices in the set (each
        /// one more than the last), so each marked machine is found by a binary search: a look costs what was
        /// marked, not a hash of every machine under way (the window's 256 a wake, 60 a file in a tree copy).
        func changedStates() -> [(index: Int, state: TransferState)] {
            let marked = changed.take()
            guard !marked.isEmpty else { return [] }
            return marked.sorted().compactMap { machine in
                var (low, high) = (active.startIndex, active.endIndex)
                while low < high {
                    let middle = (low + high) / 2
                    if active[middle].index < machine { low = middle + 1 } else { high = middle }
                }
                guard low < active.endIndex, active[low].index == machine else { return nil }
                return (low, active[low].transfer.machine.state)
            }
        }

        /// Prints the lines `states` (one look at the machines named by index) deserve, then lets the settled
        /// ones go; returns how many settled. Whether a machine settled is decided from the same look that was
        /// printed, so every final state gets its line: a machine that settles after it is seen in the next.
        @discardableResult
        mutating func printChanges(_ states: [(index: Int, state: TransferState)]) -> Int {
            for (index, state) in states {
                let transfer = active[index].transfer
                let status = transfer.status
                guard
                    lines.isWorthReporting(
                        state, after: active[index].printed, copyingFrom: status.copyingFromPercent.map(Int.init))
                else {
                    continue
                }
                io.writeOutput(
                    ProgressLines.line(name: transfer.request.id, state: state, alreadyThere: status.alreadyThere))
                io.writeOutput("\n")
                active[index].printed = state
            }
            // Written as it happens: a reader following the output live, or the log left after a kill -9.
            io.flushOutput()
            let settled = states.filter { isSettled($0.state) }
            for (index, state) in settled.reversed() {
                settle(active.remove(at: index), in: state)
            }
            if settledSinceTrim >= FreePages.settledTransfersPerTrim {
                FreePages.release()
                settledSinceTrim = 0
            }
            return settled.count
        }

        /// Counts a transfer that settled in `state` (only its size, and its reason when it failed, are kept)
        /// and lets it go.
        private mutating func settle(_ entry: Active, in state: TransferState) {
            machines.remove(entry.index)
            let status = entry.transfer.status
            done = TransferTotals([(phase: state, size: status.totalBytes, alreadyThere: status.alreadyThere != nil)])
                .adding(done)
            if case .failed(let message) = state { failures.append((entry.transfer.name, message)) }
            session.settled(entry.transfer)
            // Stopped, not awaited: nothing waits for a settled copy's last work to return (it only hands its slot
            // back), and a task a file to await it cost a thread hop each.
            entry.transfer.machine.engine.stop()
            settledSinceTrim += 1
        }

        /// Stops every active transfer (each keeps its partial and checkpoint; one past its last chunk commits and
        /// ends `completed`, so the summary counts it: ``CopyTransfer/finish()``), every run asked at once, and
        /// prints their last lines.
        mutating func stopAll() {
            let stopping = active.map(\.transfer)
            for transfer in stopping { transfer.askToStop() }
            waitFor { for transfer in stopping { await transfer.finish() } }
            printChanges(snapshot())
        }

        func printSummary(elapsed: Duration) {
            io.writeOutput(
                totals().summary(
                    skipped: session.skippedCount + session.alreadyMadeCount, linked: session.linkedCount,
                    made: session.nodeCount, failedLinks: session.failedEntries, elapsed: elapsed) + "\n")
            io.flushOutput()
        }
    }

    /// True once the transfer completed or failed: nothing more happens without a user action.
    private static func isSettled(_ state: TransferState) -> Bool {
        switch state {
        case .completed, .failed: true
        case .idle, .running, .paused: false
        }
    }

    /// Blocks the calling thread (never one of the cooperative pool's) until `work` finished.
    private static func waitFor(_ work: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await work()
            done.signal()
        }
        done.wait()
    }
}

/// The machines the change feed named as changed since the waiting thread last looked, by their index in
/// the run's ``StateMachine/MachineSet``: a class, so that the copyable `Run` and the feed's reader share the one
/// ``Locked`` set.
private final class ChangedMachines: Sendable {
    private let marked = Locked<Set<Int>>([])

    /// Marks the machines at `indices` changed.
    func mark(_ indices: some Sequence<Int>) {
        marked.withLock { $0.formUnion(indices) }
    }

    /// The machines marked so far, unmarked.
    func take() -> Set<Int> {
        marked.withLock { marked in
            defer { marked.removeAll(keepingCapacity: true) }
            return marked
        }
    }
}

extension TransferTotals {
    /// These totals and `other`'s, summed: the transfers under way and those already let go.
    fileprivate func adding(_ other: TransferTotals) -> TransferTotals {
        var sum = self
        sum.bytesDone = sum.bytesDone.addingClamped(other.bytesDone)
        sum.totalBytes = sum.totalBytes.addingClamped(other.totalBytes)
        sum.completed += other.completed
        sum.failed += other.failed
        sum.files += other.files
        sum.completedBytes = sum.completedBytes.addingClamped(other.completedBytes)
        sum.alreadyThere += other.alreadyThere
        sum.alreadyThereBytes = sum.alreadyThereBytes.addingClamped(other.alreadyThereBytes)
        return sum
    }
}
