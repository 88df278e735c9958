import Dispatch
import FileTransfer
import ScreenStates
import StateMachineKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `statetui copy --headless`: starts every transfer, prints a line per change that matters, and
/// waits until each one completed or failed, or until SIGINT/SIGTERM stops them cleanly.
///
/// The calling thread only waits and prints (it owns the non-`Sendable` output); the machines and
/// copy threads wake it through a semaphore whenever a state changes or a signal arrives. It reads
/// each machine's current state then, so a burst of progress costs one look, not one line.
public enum HeadlessCopy {
    /// Runs the session to its end; returns 0 when every transfer completed, 1 when any failed,
    /// 130/143 after SIGINT/SIGTERM (partials and journal kept for a restart).
    public static func run(_ session: CopySession, io: CommandIO, lines: ProgressLines = ProgressLines()) -> Int32 {
        let transfers = session.transfers
        let wake = DispatchSemaphore(value: 0)
        let signals = SignalWatch(wake: wake)
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
        func printChanges() {
            for (index, transfer) in transfers.enumerated() {
                let state = transfer.machine.state
                if lines.isWorthReporting(state, after: printed[index]) {
                    io.writeOutput(ProgressLines.line(name: transfer.name, state: state) + "\n")
                    printed[index] = state
                }
            }
        }
        while true {
            printChanges()
            if let signal = signals.received {
                waitFor { for transfer in transfers { await transfer.stop() } }
                printChanges()
                io.writeError(
                    "statetui: interrupted by \(signal == SIGINT ? "SIGINT" : "SIGTERM"); partial files and the journal "
                        + "are kept, run the same command again to continue\n")
                return 128 + signal
            }
            if transfers.allSatisfy({ $0.machine.state.isSettled }) {
                waitFor { for transfer in transfers { await transfer.stop() } }
                break
            }
            wake.wait()
        }
        var failed = 0
        for transfer in transfers {
            if case .failed(let message) = transfer.machine.state {
                failed += 1
                io.writeError("statetui: \(transfer.name): \(message)\n")
            }
        }
        if failed > 0 {
            io.writeError("statetui: \(failed) of \(transfers.count) transfers failed\n")
            return 1
        }
        return 0
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

/// SIGINT and SIGTERM as values: while watched they no longer kill the process; the first one is
/// recorded and wakes the waiting thread.
private final class SignalWatch {
    private final class FirstSignal: Sendable {
        let number = Locked<Int32?>(nil)
    }

    private let sources: [any DispatchSourceSignal]
    private let first = FirstSignal()

    init(wake: DispatchSemaphore) {
        let first = self.first
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                first.number.withLock { if $0 == nil { $0 = number } }
                wake.signal()
            }
            source.resume()
            return source
        }
    }

    /// The first signal received, if any.
    var received: Int32? { first.number.withLock { $0 } }

    /// Stops watching and restores the default actions.
    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

extension TransferState {
    /// True once the transfer completed or failed: nothing more happens without a user action.
    var isSettled: Bool {
        switch self {
        case .completed, .failed: true
        case .idle, .running, .paused: false
        }
    }
}
