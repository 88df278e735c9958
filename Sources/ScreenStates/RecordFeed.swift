import StateMachineKit
import Support

/// A machine's history as a stream: the machine's own records, read again whenever it may have recorded
/// something new.
///
/// `states()` wakes a reader only when the state changes; an event the machine drops as stale, ignores,
/// accepts without change or calls invalid leaves the state as it was, yet it is a record the screens count
/// and the History screen shows. So a reader is woken by the machine's `states()` and, for those other
/// records, by ``noted(_:)``: whoever delivered the event hands over the outcome the machine returned. The
/// feed carries no data of its own: every value a reader gets is ``StateMachineKit/StateMachine/history``
/// read from the machine.
public final class RecordFeed<State: Hashable & Sendable, Event: Sendable>: Sendable {
    /// The records of one machine, oldest first.
    public typealias Records = [StateMachine<State, Event>.Record]

    private struct Readers {
        weak var engine: StateMachine<State, Event>?
        var nextID = 0
        var all: [Int: AsyncStream<Records>.Continuation] = [:]
    }

    private let readers = Locked(Readers())
    /// Readers whose streams ended, removed from `readers` by the next ``publish(to:)``. A stream's end
    /// must not wait for `readers`: it runs while the reading task's status is locked (a cancellation),
    /// and ``publish(to:)`` resumes that task while holding `readers`, which needs that status lock.
    private let leaving = Locked<[Int]>([])

    /// A feed with no machine and no readers yet; ``attach(_:)`` names the machine.
    public init() {}

    /// Names the machine whose records the feed reads.
    public func attach(_ engine: StateMachine<State, Event>) {
        readers.withLock { $0.engine = engine }
    }

    /// The machine's records now, then again after each state change and each outcome ``noted(_:)``,
    /// newest only; the stream ends when its reader stops reading.
    public func records() -> AsyncStream<Records> {
        let (stream, continuation) = AsyncStream.makeStream(of: Records.self, bufferingPolicy: .bufferingNewest(1))
        let (id, engine) = readers.withLock { readers in
            forgetLeft(&readers)
            readers.nextID += 1
            readers.all[readers.nextID] = continuation
            return (readers.nextID, readers.engine)
        }
        continuation.yield(engine?.history ?? [])
        let changes = engine?.states()
        let pump = Task { [weak self] in
            guard let changes else { return }
            for await _ in changes { self?.publish(to: id) }
        }
        continuation.onTermination = { [weak self] _ in
            pump.cancel()
            self?.leaving.withLock { $0.append(id) }
        }
        return stream
    }

    /// Wakes the readers when `outcome` is a record that did not change the state (a change wakes them
    /// through `states()`); returns `outcome`.
    @discardableResult
    public func noted(_ outcome: Outcome) -> Outcome {
        switch outcome {
        case .moved, .updated, .stopped: break
        case .stayed, .ignored, .invalid, .stale, .postponed, .overflowed: publish(to: nil)
        }
        return outcome
    }

    /// Removes the readers whose streams ended since the last time (called with `readers` locked, so
    /// their number stays bounded by the readers that come and go between two calls).
    private func forgetLeft(_ readers: inout Readers) {
        let left = leaving.withLock { ids in
            defer { ids.removeAll() }
            return ids
        }
        for id in left { readers.all.removeValue(forKey: id) }
    }

    /// Reads and hands out the history under the readers' lock, so two wake-ups racing on two threads
    /// cannot leave an older history as a reader's newest. The machine never holds its own lock while
    /// anything here runs, so taking it here cannot deadlock.
    private func publish(to id: Int?) {
        readers.withLock { readers in
            forgetLeft(&readers)
            guard let engine = readers.engine, !readers.all.isEmpty else { return }
            let history = engine.history
            if let id {
                readers.all[id]?.yield(history)
            } else {
                for reader in readers.all.values { reader.yield(history) }
            }
        }
    }
}
