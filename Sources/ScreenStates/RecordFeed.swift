import StateMachineKit

/// A machine's history as a stream: the machine's own records, read again each time it records an event.
///
/// `states()` wakes a reader only when the state changes; an event the machine drops as stale, ignores or
/// calls invalid leaves the state as it was, yet it is a record the screens count and the History screen
/// shows. The engine announces every record it makes to its ``StateMachineKit/Reporter`` (outside its lock,
/// in the order it applied the events), so the feed rides on that announcement: it carries no data of its
/// own, and every value a reader gets is ``StateMachineKit/StateMachine/history`` read from the machine.
public final class RecordFeed<State: Hashable & Sendable, Event: Sendable>: Sendable {
    /// The records of one machine, oldest first.
    public typealias Records = [StateMachine<State, Event>.Record]

    private struct Readers {
        weak var engine: StateMachine<State, Event>?
        var nextID = 0
        var all: [Int: AsyncStream<Records>.Continuation] = [:]
    }

    private let readers = Locked(Readers())

    /// A feed with no machine and no readers yet; ``attach(_:)`` names the machine.
    public init() {}

    /// The reporter to give the machine: every record it reports wakes the readers, then `next` (if any)
    /// gets the report too.
    public func reporter(passingTo next: Reporter?) -> Reporter {
        Reporter(minimumLevel: .trace) { [weak self] report in
            // Cancellations and timer notes are not records; every other report is one.
            if report.name != Report.Name.cancelled && report.name != Report.Name.timeout { self?.publish() }
            next?.report(report)
        }
    }

    /// Names the machine whose records the feed reads.
    public func attach(_ engine: StateMachine<State, Event>) {
        readers.withLock { $0.engine = engine }
    }

    /// The machine's records now, then again after each record it makes, newest only; the stream ends when
    /// its reader stops reading.
    public func records() -> AsyncStream<Records> {
        let (stream, continuation) = AsyncStream.makeStream(of: Records.self, bufferingPolicy: .bufferingNewest(1))
        let (id, engine) = readers.withLock { readers in
            readers.nextID += 1
            readers.all[readers.nextID] = continuation
            return (readers.nextID, readers.engine)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.readers.withLock { $0.all.removeValue(forKey: id) }
        }
        continuation.yield(engine?.history ?? [])
        return stream
    }

    /// Reads and hands out the history under the readers' lock, so two reports racing on two threads
    /// cannot leave an older history as a reader's newest. The machine never holds its own lock while it
    /// reports, so taking it here cannot deadlock.
    private func publish() {
        readers.withLock { readers in
            guard let engine = readers.engine, !readers.all.isEmpty else { return }
            let history = engine.history
            for reader in readers.all.values { reader.yield(history) }
        }
    }
}
