import StateMachineKit
import Support

/// Keeps a run of `whileIn` work alive while its simulated world answers on a ``SimulationClock``: the
/// work sets up its callbacks, then waits here until it says it is done or the machine cancels it.
///
/// The work's `Sender` stays with the callbacks, so whatever they report after the machine cancelled the
/// run (a chunk already on the wire, a response already on its way) reaches the machine through the sender
/// of that run and is dropped there as stale.
package enum WorkHold {
    /// Calls `setUp` with a `finish` function, then returns once `finish` is called or the task is
    /// cancelled; `onCancel` runs (once, synchronously with the cancellation) only in the second case.
    package static func run(
        _ setUp: (_ finish: @escaping @Sendable () -> Void) -> Void, onCancel: @escaping @Sendable () -> Void
    ) async {
        let gate = Gate()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Cancelled before it began: nothing is set up, nothing will report.
                if gate.park(continuation) { setUp { gate.open(cancelled: false)?() } }
            }
        } onCancel: {
            gate.open(cancelled: true).map { resume in
                onCancel()
                resume()
            }
        }
    }

    /// The continuation a run waits on, resumed once by whichever comes first.
    private final class Gate: Sendable {
        private enum Phase {
            case waiting(CheckedContinuation<Void, Never>?)
            case opened(cancelled: Bool)
        }

        private let phase = Locked(Phase.waiting(nil))

        /// Stores the continuation; false (and resumed at once) when the gate was already opened.
        func park(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
            let parked = phase.withLock { phase -> Bool in
                switch phase {
                case .waiting:
                    phase = .waiting(continuation)
                    return true
                case .opened:
                    return false
                }
            }
            if !parked { continuation.resume() }
            return parked
        }

        /// The resumption to perform for the first opening; nil once opened.
        func open(cancelled: Bool) -> (@Sendable () -> Void)? {
            phase.withLock { phase -> (@Sendable () -> Void)? in
                switch phase {
                case .waiting(let continuation):
                    phase = .opened(cancelled: cancelled)
                    return { continuation?.resume() }
                case .opened:
                    return nil
                }
            }
        }
    }
}
