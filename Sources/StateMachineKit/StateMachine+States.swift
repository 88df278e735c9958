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
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let parked = core.withLock { $0.park(reader: id, continuation) }
                    if !parked { continuation.resume() }
                }
            } onCancel: {
                core.withLock { $0.cancel(reader: id) }?.resume()
            }
        }
    }

    /// Forgets reader `id` once its stream is gone.
    func removeReader(_ id: Int) {
        let waiter = core.withLock { core -> CheckedContinuation<Void, Never>? in
            guard let index = core.readers.firstIndex(where: { $0.id == id }) else { return nil }
            let waiter = core.readers.remove(at: index).waiter
            if waiter != nil { core.parkedReaders -= 1 }
            return waiter
        }
        waiter?.resume()
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
        if stopped || readers[index].cancelled {
            readers.remove(at: index)
            return .finished
        }
        return .empty
    }

    /// Stores the waiting reader; `false` when there is already something to take, so it must not wait.
    mutating func park(reader id: Int, _ continuation: CheckedContinuation<Void, Never>) -> Bool {
        guard let index = readers.firstIndex(where: { $0.id == id }) else { return false }
        if readers[index].seen != changes || stopped || readers[index].cancelled || Task.isCancelled {
            return false
        }
        readers[index].waiter = continuation
        parkedReaders += 1
        return true
    }

    /// Marks the reader's task cancelled and returns its waiter to wake.
    mutating func cancel(reader id: Int) -> CheckedContinuation<Void, Never>? {
        guard let index = readers.firstIndex(where: { $0.id == id }) else { return nil }
        readers[index].cancelled = true
        guard let waiter = readers[index].waiter else { return nil }
        readers[index].waiter = nil
        parkedReaders -= 1
        return waiter
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
