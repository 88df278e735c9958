import StateMachineKit
import Support

/// Runs async operations one at a time, in the order they arrive.
///
/// A transfer's work for one visit may still be finishing its last chunk (and syncing the partial)
/// when the next visit's work starts; the copy job admits one run at a time, and removing a cancelled
/// partial must not race a new run that writes it. Every operation on a transfer's job goes through
/// this gate, so the file sees them strictly in sequence.
final class SerialGate: Sendable {
    private struct State {
        var busy = false
        var waiters: [CheckedContinuation<Void, Never>] = []

        /// Takes the gate when it is free; false while an operation holds it.
        mutating func takeFree() -> Bool {
            guard !busy else { return false }
            busy = true
            return true
        }
    }

    private let state = Locked(State())

    /// Waits for its turn (not cancellable: an operation that found its visit over returns at once),
    /// runs `body`, then lets the next one in.
    func run<T: Sendable>(_ body: () async -> T) async -> T {
        await acquire()
        let result = await body()
        release()
        return result
    }

    private func acquire() async {
        // The gate free, as it is for all but a transfer's overlapping visits: taken at once, with no continuation.
        if state.withLock({ $0.takeFree() }) { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                if state.takeFree() { return true }
                state.waiters.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    /// How many operations wait for their turn (for tests).
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.busy = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
