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
        // Seen "one change ago": the first take yields the current state at once.
        let reader = addReader(.states) { $0.changes &- 1 }
        return AsyncStream(unfolding: {
            switch await reader.next() {
            case .state(let state): state
            case nil: nil
            case .records: preconditionFailure("Internal inconsistency: states() reader \(reader.id) got records")
            }
        })
    }

    /// Adds a reader of `kind` whose `seen` is `seen(core)`, and returns its place in the machine.
    @inlinable
    func addReader(_ kind: ReaderKind, seen: (Core) -> Int) -> MachineReader<State, Event> {
        let id = core.withLock { core in
            let id = core.makeID()
            core.live.readers.slots[id] = ReaderSlot(kind: kind, seen: seen(core))
            return id
        }
        return MachineReader(machine: self, id: id)
    }

    /// What a reader's arrival comes to: the action of the reader-arrival input.
    @usableFromInline
    enum ReaderStep: Sendable {
        /// A state or records it has not seen.
        case took(Reading)
        /// Its stream is over (stop, cancellation, or the machine is gone).
        case finished
        /// It has read the newest and its stream goes on (not parked yet).
        case caughtUp
        /// It is parked: a change (a record, for a feed reader), stop, cancellation or the machine's end
        /// resumes it.
        case parked
    }

    /// Forgets reader `id` once its stream is gone.
    @inlinable
    func removeReader(_ id: Int) {
        perform(core.withLock { $0.remove(reader: id) })
    }

    /// Ends the stream of a reader taken out of the parked ones.
    @inlinable
    func perform(_ action: ReaderExitAction) {
        switch action {
        case .none: break
        case .finish(let reader): reader.resume(returning: nil)
        }
    }
}

extension StateMachine.Core {
    /// The reader-arrival input, when the reader will not wait: takes what it has not read (the current
    /// state, or the records after its cursor), ends its stream (stopped or cancelled), or says it has
    /// caught up.
    @inlinable
    mutating func take(reader id: Int) -> StateMachine.ReaderStep {
        guard let slot = live.readers.slots[id] else { return .finished }
        switch slot.kind {
        case .states:
            if slot.seen != changes {
                live.readers.slots[id]?.seen = changes
                return .took(.state(state))
            }
        case .records:
            if slot.seen < sequence {
                live.readers.slots[id]?.seen = sequence
                return .took(.records(batch(after: slot.seen)))
            }
        }
        if isStopped || slot.cancelled {
            live.readers.slots[id] = nil
            return .finished
        }
        return .caughtUp
    }

    /// The reader-arrival input, when the reader will wait: takes what it has not read; else ends its
    /// stream (stopped or cancelled) or parks it until the next change (the next record, for a feed reader).
    @inlinable
    mutating func takeOrPark(
        reader id: Int, _ continuation: StateMachine.ParkedReader
    ) -> StateMachine.ReaderStep {
        let step = take(reader: id)
        guard case .caughtUp = step, let slot = live.readers.slots[id] else { return step }
        live.readers.park(id, kind: slot.kind, continuation)
        return .parked
    }

    /// The reader-cancellation input: marks the reader's task cancelled, and ends its stream if it was
    /// parked.
    @inlinable
    mutating func cancel(reader id: Int) -> StateMachine.ReaderExitAction {
        guard live.readers.slots[id] != nil else { return .none }
        live.readers.slots[id]?.cancelled = true
        return live.readers.unpark(id)
    }

    /// Forgets the reader once its stream is gone, and ends its stream if it was parked.
    @inlinable
    mutating func remove(reader id: Int) -> StateMachine.ReaderExitAction {
        live.readers.slots[id] = nil
        return live.readers.unpark(id)
    }
}

/// Holds one reader's place in a machine for as long as its stream exists: a `states()` reader's or a
/// ``StateMachine/records(after:)`` reader's, which differ only in what they take.
///
/// It holds the machine weakly and takes it strongly only for one step under the lock, never across a
/// suspension: a reader parked on a forgotten machine does not keep it alive, so the machine's `deinit`
/// runs, ends it as if stopped, and its stream finishes.
@usableFromInline
final class MachineReader<State: Hashable & Sendable, Event: Sendable>: Sendable {
    @usableFromInline weak let machine: StateMachine<State, Event>?
    @usableFromInline let id: Int

    @inlinable
    init(machine: StateMachine<State, Event>, id: Int) {
        self.machine = machine
        self.id = id
    }

    /// What the reader reads next, waiting for it when the reader has read the newest; `nil` ends the
    /// stream.
    ///
    /// One lock per call: the reader takes or parks in the same step, and whoever wakes a parked reader
    /// hands it what it reads at that moment, so a wake-up costs no second trip to the lock. Inlinable,
    /// with the whole reading path, so that a client's reader runs specialised for its own `State`.
    @inlinable
    func next() async -> StateMachine<State, Event>.Reading? {
        // Most calls find something to take at once. A reader that has caught up first lets the senders
        // run once: events that arrive meanwhile coalesce into what it takes next, instead of each waking
        // a parked reader, which costs the sender a wake-up per event when the reader is as fast as it.
        switch await take() {
        case .took(let reading): return reading
        case .finished: return nil
        case .caughtUp: await Task.yield()
        case .parked: preconditionFailure("Internal inconsistency: reader \(id) parked by a take")
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: StateMachine<State, Event>.ParkedReader) in
                // Resumed exactly once: here when it must not wait, else by whoever takes it out of the
                // parked readers (a change, stop, cancellation, the stream's end or the machine's).
                switch step({ $0.takeOrPark(reader: id, continuation) }) {
                case .took(let reading): continuation.resume(returning: reading)
                case .finished: continuation.resume(returning: nil)
                case .parked: break
                case .caughtUp: preconditionFailure("Internal inconsistency: reader \(id) neither took nor parked")
                }
            }
        } onCancel: {
            if let machine { machine.perform(machine.core.withLock { $0.cancel(reader: id) }) }
        }
    }

    /// Takes what the reader has not read, without waiting for the lock while a sender holds it: a busy lock
    /// lets the senders run on (the reader yields and tries again), since a reader that waited would spin on
    /// the lock's memory and slow every sender's next event, where it reads the newest state once it gets
    /// there anyway. After a few tries it waits like anyone else, so it is never starved.
    @inlinable
    func take() async -> StateMachine<State, Event>.ReaderStep {
        for _ in 0..<Self.triesBeforeWaiting {
            if let step = tryStep({ $0.take(reader: id) }) { return step }
            await Task.yield()
        }
        return step({ $0.take(reader: id) })
    }

    /// How many times a reader tries the lock, yielding between tries, before it waits for it.
    @inlinable
    static var triesBeforeWaiting: Int { 16 }

    /// Runs `body` under the machine's lock if no one holds it, holding the machine only meanwhile; `nil`, running
    /// nothing, while someone does; `.finished` once the machine is gone.
    @inlinable
    func tryStep(
        _ body: (inout StateMachine<State, Event>.Core) -> StateMachine<State, Event>.ReaderStep
    ) -> StateMachine<State, Event>.ReaderStep? {
        guard let machine else { return .finished }
        return machine.core.withLockIfAvailable { body(&$0) }
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
