extension StateMachine {
    /// The current state at once, then the newest state after each change, until ``stop()``.
    ///
    /// Buffering is newest-only: a slow reader sees where the machine is when it asks, never a
    /// backlog of steps. Any number of readers may exist; each has its own stream.
    public func states() -> AsyncStream<State> {
        let id = core.withLock { core in
            let id = core.makeID()
            // Seen "one change ago": the first take yields the current state at once.
            core.readers.append(ReaderSlot(id: id, seen: core.changes &- 1))
            return id
        }
        let reader = StateReader(machine: self, id: id)
        return AsyncStream(unfolding: { await reader.next() })
    }

    /// What a reader finds when it asks for the next state.
    enum ReaderStep: Sendable {
        case state(State)
        case finished
        case empty
    }

    /// The next state for reader `id`, waiting for a change when it has seen the newest one.
    func nextState(reader id: Int) async -> State? {
        while true {
            switch core.withLock({ $0.take(reader: id) }) {
            case .state(let state): return state
            case .finished: return nil
            case .empty: break
            }
            await withTaskCancellationHandler {
                await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                    // Resumed exactly once: here when it must not wait, else by whoever takes it out of
                    // the parked list (a change, stop, cancellation or the stream's end).
                    if !core.withLock({ $0.park(reader: id, continuation) }) { continuation.resume() }
                }
            } onCancel: {
                core.withLock { $0.cancel(reader: id) }?.resume()
            }
        }
    }

    /// Forgets reader `id` once its stream is gone.
    func removeReader(_ id: Int) {
        core.withLock { $0.remove(reader: id) }?.resume()
    }
}

extension StateMachine.Core {
    /// Takes the current state if the reader has not seen it, or reports that its stream is over.
    mutating func take(reader id: Int) -> StateMachine.ReaderStep {
        guard let index = readers.firstIndex(where: { $0.id == id }) else { return .finished }
        if readers[index].seen != changes {
            readers[index].seen = changes
            return .state(state)
        }
        if isStopped || readers[index].cancelled {
            readers.remove(at: index)
            return .finished
        }
        return .empty
    }

    /// Parks the reader until the next change; `false` when there is already something to take (or
    /// its stream is over), so it must not wait.
    mutating func park(reader id: Int, _ continuation: UnsafeContinuation<Void, Never>) -> Bool {
        guard let index = readers.firstIndex(where: { $0.id == id }) else { return false }
        if readers[index].seen != changes || isStopped || readers[index].cancelled || Task.isCancelled {
            return false
        }
        precondition(!parked.contains { $0.id == id }, "Internal inconsistency: reader \(id) parked twice")
        parked.append(StateMachine.ParkedReader(id: id, continuation: continuation))
        return true
    }

    /// Marks the reader's task cancelled and returns its continuation to resume, if it was parked.
    mutating func cancel(reader id: Int) -> UnsafeContinuation<Void, Never>? {
        guard let index = readers.firstIndex(where: { $0.id == id }) else { return nil }
        readers[index].cancelled = true
        return unpark(reader: id)
    }

    /// Forgets the reader and returns its continuation to resume, if it was parked.
    mutating func remove(reader id: Int) -> UnsafeContinuation<Void, Never>? {
        readers.removeAll { $0.id == id }
        return unpark(reader: id)
    }

    private mutating func unpark(reader id: Int) -> UnsafeContinuation<Void, Never>? {
        guard let index = parked.firstIndex(where: { $0.id == id }) else { return nil }
        return parked.remove(at: index).continuation
    }
}

/// Holds one reader's place in a machine for as long as its stream exists.
final class StateReader<State: Hashable & Sendable, Event: Sendable>: Sendable {
    // Weak: a stream must not keep a forgotten machine alive; it simply finishes.
    private weak let machine: StateMachine<State, Event>?
    private let id: Int

    init(machine: StateMachine<State, Event>, id: Int) {
        self.machine = machine
        self.id = id
    }

    func next() async -> State? {
        guard let machine else { return nil }
        return await machine.nextState(reader: id)
    }

    deinit {
        machine?.removeReader(id)
    }
}
