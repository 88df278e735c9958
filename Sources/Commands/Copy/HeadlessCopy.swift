import DashboardApp
import Dispatch
import FileTransfer
import MachineDrivers
import ScreenStates
import StateMachineKit
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `statetui copy --headless`: starts every transfer, prints a line per change that matters, and
/// waits until each one completed or failed, or until SIGINT/SIGTERM stops them cleanly.
///
/// Every line is one line: file names and messages have their control characters escaped
/// (``DisplayText/escaped(_:limit:)``), and every transfer's final state is printed before the exit.
///
/// The calling thread only waits and prints (it owns the non-`Sendable` output); the machines and
/// copy threads wake it through a semaphore whenever a state changes; signals are polled every 50 ms. It reads
/// each machine's current state then, so a burst of progress costs one look, not one line.
///
/// Lines are flushed as they are printed, so a reader following the output (live or through a pipe) sees
/// them at once and a kill -9 leaves the log so far. While copies run, a total line (``TransferTotals``)
/// is printed at most once per ``ProgressLines/totalInterval``; a summary ends the output.
enum HeadlessCopy {
    /// Runs the session to its end, measuring its time on `clock`; returns 0 when every transfer completed,
    /// 1 when any failed, 130/143 after SIGINT/SIGTERM (partials and journal kept for a restart).
    static func run(
        _ session: CopySession, io: CommandIO, lines: ProgressLines = ProgressLines(),
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Int32 {
        let transfers = session.transfers
        let started = clock.now
        var lastTotal: Duration?
        func totals() -> TransferTotals {
            TransferTotals(
                transfers.map {
                    let status = $0.status
                    return (phase: $0.machine.state, size: status.totalBytes, alreadyThere: status.alreadyThere != nil)
                })
        }
        let wake = DispatchSemaphore(value: 0)
        let signals = SignalWatch()
        defer { signals.cancel() }
        let watchers = transfers.map { transfer in
            let states = transfer.machine.engine.states()
            return Task {
                for await _ in states { wake.signal() }
            }
        }
        defer { for watcher in watchers { watcher.cancel() } }

        for transfer in transfers { transfer.machine.send(.start) }
        var printed: [TransferState?] = Array(repeating: nil, count: transfers.count)
        // Prints the lines `states` (one snapshot of every machine) deserve. The loop decides whether
        // everything settled from the same snapshot it printed, so every final state gets its line: a
        // machine that settles after the snapshot is seen (and printed) in the next round.
        func printChanges(_ states: [TransferState]) {
            for (index, state) in states.enumerated() {
                let status = transfers[index].status
                guard lines.isWorthReporting(state, after: printed[index], copying: status.isCopying) else { continue }
                io.writeOutput(
                    ProgressLines.line(
                        name: transfers[index].request.id, state: state, alreadyThere: status.alreadyThere)
                        + "\n")
                printed[index] = state
            }
            // Written as it happens: a reader following the output live, or the log left after a kill -9.
            io.flushOutput()
        }
        func snapshot() -> [TransferState] { transfers.map { $0.machine.state } }
        // The links the session made itself get a line each: the symbolic links now (made before any transfer
        // starts), the hard links once ``CopySession/finish()`` made them.
        var linesOfLinks = 0
        func printLinks() {
            let links = session.links
            for link in links.dropFirst(linesOfLinks) { io.writeOutput("\(link)\n") }
            linesOfLinks = links.count
        }
        printLinks()
        func printSummary() {
            let links = session.links
            let linked = links.count { !$0.wasThere }
            io.writeOutput(
                totals().summary(
                    skipped: session.skipped.count + links.count - linked, linked: linked,
                    failedLinks: session.failedLinks, elapsed: started.duration(to: clock.now)) + "\n")
            io.flushOutput()
        }
        while true {
            let states = snapshot()
            printChanges(states)
            let elapsed = started.duration(to: clock.now)
            if !states.allSatisfy(isSettled), lines.isTotalDue(at: elapsed, lastPrinted: lastTotal) {
                io.writeOutput(totals().line(elapsed: elapsed) + "\n")
                io.flushOutput()
                lastTotal = elapsed
            }
            if let signal = signals.received {
                waitFor { for transfer in transfers { await transfer.finish() } }
                printChanges(snapshot())
                printSummary()
                io.writeError(
                    "statetui: interrupted by \(signal == SIGINT ? "SIGINT" : "SIGTERM"); partial files and the journal "
                        + "are kept, run the same command again to continue\n")
                return 128 + signal
            }
            if states.allSatisfy(isSettled) {
                waitFor { for transfer in transfers { await transfer.finish() } }
                for problem in session.removeSettledJournals() { io.writeError("statetui: \(problem)\n") }
                printLinks()
                printSummary()
                break
            }
            // A signal handler cannot wake a semaphore safely, so the wait is bounded and the flag polled.
            _ = wake.wait(timeout: .now() + .milliseconds(50))
        }
        return CopyExitStatus.report(transfers, io: io)
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

/// The first SIGINT or SIGTERM received while a ``SignalWatch`` is active (0: none). A lock-free
/// atomic is one of the few things a signal handler may touch.
private let receivedSignal = Atomic<Int32>(0)

/// SIGINT and SIGTERM as values: while watched they no longer kill the process; the first one is
/// recorded for the waiting thread, which polls it between waits.
///
/// A plain `sigaction` handler rather than a dispatch source: it also replaces the SIG_IGN a shell
/// gives background jobs, and it catches the signal on whichever thread the kernel picks.
private struct SignalWatch {
    init() {
        receivedSignal.store(0, ordering: .relaxed)
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                _ = receivedSignal.compareExchange(expected: 0, desired: number, ordering: .relaxed)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// The first signal received, if any.
    var received: Int32? {
        let number = receivedSignal.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// Stops watching and restores the default actions.
    func cancel() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
