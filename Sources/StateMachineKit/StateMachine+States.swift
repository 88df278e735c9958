import Support

extension StateMachine {
    /// The current state at once, then the newest state after each change, until ``stop()``.
    ///
    /// Buffering is newest-only: a slow reader sees where the machine is when it asks, never a
    /// backlog of steps. Any number of readers may exist; each has its own stream.
    ///
    /// Inlinable, with the whole reading path, so that a client's reader runs specialised for its own
    /// `State` instead of through generic metadata on every wake-up.
    @inlinable
    public func states() -> AsyncStream<State> {
        let id = core.withLock { core in
            let id = core.makeID()
            // Seen "one change ago": the first take yields the current state at once.
            core.readers[id] = ReaderSlot(seen: core.changes &- 1)
            return id
        }
        let reader = StateReader(machine: self, id: id)
        return AsyncStream(unfolding: { await reader.next() })
    }

    /// What a reader finds when it asks for the next state.
    @usableFromInline
    enum ReaderStep: Sendable {
        /// A state it has not seen.
        case state(State)
        /// Its stream is over (stop, cancellation, or the machine is gone).
        case finished
        /// It has seen the newest state and its stream goes on (not parked yet).
        case caughtUp
        /// It is parked: a change, stop, cancellation or the machine's end resumes it.
        case parked
    }

    /// Forgets reader `id` once its stream is gone.
    @inlinable
    func removeReader(_ id: Int) {
        core.withLock { $0.remove(reader: id) }?.resume(returning: nil)
    }
}

extension StateMachine.Core {
    /// Takes the current state if the reader has not seen it, ends its stream (stopped or cancelled), or
    /// says it has caught up.
    @inlinable
    mutating func take(reader id: Int) -> StateMachine.ReaderStep {
        guard let slot = readers[id] else { return .finished }
        if slot.seen != changes {
            readers[id]?.seen = changes
            return .state(state)
        }
        if isStopped || slot.cancelled {
            readers[id] = nil
            return .finished
        }
        return .caughtUp
    }

    /// Takes the current state if the reader has not seen it; else ends its stream (stopped or
    /// cancelled) or parks it until the next change.
    @inlinable
    mutating func takeOrPark(
        reader id: Int, _ continuation: UnsafeContinuation<State?, Never>
    ) -> StateMachine.ReaderStep {
        let step = take(reader: id)
        guard case .caughtUp = step else { return step }
        precondition(parked[id] == nil, "Internal inconsistency: reader \(id) parked twice")
        parked[id] = continuation
        return .parked
    }

    /// Marks the reader's task cancelled and returns its continuation to resume, if it was parked.
    @inlinable
    mutating func cancel(reader id: Int) -> UnsafeContinuation<State?, Never>? {
        guard readers[id] != nil else { return nil }
        readers[id]?.cancelled = true
        return parked.removeValue(forKey: id)
    }

    /// Forgets the reader and returns its continuation to resume, if it was parked.
    @inlinable
    mutating func remove(reader id: Int) -> UnsafeContinuation<State?, Never>? {
        readers[id] = nil
        return parked.removeValue(forKey: id)
    }
}

/// Holds one reader's place in a machine for as long as its stream exists.
///
/// It holds the machine weakly and takes it strongly only for one step under the lock, never across a
/// suspension: a reader parked on a forgotten machine does not keep it alive, so the machine's `deinit`
/// runs, ends it as if stopped, and its stream finishes.
@usableFromInline
final class StateReader<State: Hashable & Sendable, Event: Sendable>: Sendable {
    @usableFromInline weak let machine: StateMachine<State, Event>?
    @usableFromInline let id: Int

    @inlinable
    init(machine: StateMachine<State, Event>, id: Int) {
        self.machine = machine
        self.id = id
    }

    /// The next state, waiting for a change when the reader has seen the newest one; `nil` ends the stream.
    ///
    /// One lock per call: the reader takes the state or parks in the same step, and whoever wakes a parked
    /// reader hands it the state of that moment, so a wake-up costs no second trip to the lock. Inlinable,
    /// with the whole reading path, so that a client's reader runs specialised for its own `State`.
    @inlinable
    func next() async -> State? {
        // Most calls find a state to take at once. A reader that has caught up first lets the senders run
        // once: events that arrive meanwhile coalesce into the state it takes next, instead of each waking
        // a parked reader, which costs the sender a wake-up per event when the reader is as fast as it.
        switch step({ $0.take(reader: id) }) {
        case .state(let state): return state
        case .finished: return nil
        case .caughtUp: await Task.yield()
        case .parked: preconditionFailure("Internal inconsistency: reader \(id) parked by a take")
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<State?, Never>) in
                // Resumed exactly once: here when it must not wait, else by whoever takes it out of the
                // parked readers (a change, stop, cancellation, the stream's end or the machine's).
                switch step({ $0.takeOrPark(reader: id, continuation) }) {
                case .state(let state): continuation.resume(returning: state)
                case .finished: continuation.resume(returning: nil)
                case .parked: break
                case .caughtUp: preconditionFailure("Internal inconsistency: reader \(id) neither took nor parked")
                }
            }
        } onCancel: {
            machine?.core.withLock { $0.cancel(reader: id) }?.resume(returning: nil)
        }
    }

    /// Runs `body` under the machine's lock, holding the machine only meanwhile; `.finished` once it is gone.
    @inlinable
    func step(
        _ body: (inout StateMachine<State, Event>.Core) -> StateMachine<State, Event>.ReaderStep
    ) -> StateMachine<State, Event>.ReaderStep {
        guard let machine else { return .finished }
        return machine.core.withLock { body(&$0) }
    }

    deinit {
        machine?.removeReader(id)
    }
}
