extension StateMachine {
    /// What resumes one parked reader: with what it reads, or `nil` to end its stream.
    @usableFromInline
    typealias ParkedReader = UnsafeContinuation<Reading?, Never>

    /// What a reader takes: a `states()` reader the state, a ``records(after:)`` reader a batch.
    @usableFromInline
    enum Reading: Sendable {
        case state(State)
        case records(RecordBatch)
    }

    /// What a reader reads, which decides what it waits for.
    @usableFromInline
    enum ReaderKind: Sendable {
        /// A `states()` reader: waits for a change (`.to` or `.update`).
        case states
        /// A ``records(after:)`` reader: waits for any record.
        case records
    }

    /// One reader: what it reads, how far it has read, and whether its task was cancelled.
    ///
    /// A reader holds no copy of the state or the records: it reads the machine's when it takes them, so it
    /// always gets the newest, and an event costs readers nothing unless one of them is parked.
    @usableFromInline
    struct ReaderSlot: Sendable {
        @usableFromInline let kind: ReaderKind
        /// For a `states()` reader, the value of ``Core/changes`` when it last took the state; for a feed
        /// reader, its cursor: the ``Core/sequence`` of the newest record it was handed.
        @usableFromInline var seen: Int
        @usableFromInline var cancelled = false

        @inlinable
        init(kind: ReaderKind, seen: Int) {
            self.kind = kind
            self.seen = seen
        }
    }

    /// The readers of a machine, in its phase: each reader's place, and which of them are parked.
    @usableFromInline
    struct Readers: Sendable {
        /// Every reader, `states()` and feed, by id: found in constant time, so waking or ending N readers is
        /// linear.
        @usableFromInline var slots: [Int: ReaderSlot] = [:]
        /// The `states()` readers waiting for a change, by id; being in here is what being parked means.
        @usableFromInline var parked: [Int: ParkedReader] = [:]
        /// The feed readers waiting for the next record, by id: apart from ``parked`` so that a record that
        /// changes nothing looks at feed readers only.
        @usableFromInline var parkedFeeds: [Int: ParkedReader] = [:]
        /// The feeds of many machines waiting for this machine's next record: each is told once, after the
        /// lock, and watches again when it reads (``RecordsOfMany``), so a burst of records wakes it once.
        @usableFromInline var watchers: [RecordWatcher] = []

        @inlinable init() {}

        /// Whether no reader is parked and no feed of many machines watches: an event then has no one to wake.
        @inlinable var noneParked: Bool { parked.isEmpty && parkedFeeds.isEmpty && watchers.isEmpty }

        /// Takes the parked readers to wake after a change. Readers that are not parked find out when they
        /// next ask, so a burst of events coalesces into one wake-up.
        @inlinable
        mutating func publish(into effects: inout Effects?) {
            if !parked.isEmpty { wakeParked(finishing: false, into: &effects) }
        }

        /// Takes every parked `states()` reader out of the list: to hand the state once the event is fully
        /// applied (``Core/settle(some:)``), or with `finishing`, to end its stream. Finishing also
        /// ends the parked feed readers: having caught up, they have nothing left to read.
        @inlinable
        mutating func wakeParked(finishing: Bool, into effects: inout Effects?) {
            if finishing && !parkedFeeds.isEmpty {
                wakeParkedFeeds(into: &effects)
                effects.edit { $0.wakeFinishes = true }
            }
            guard !parked.isEmpty else { return }
            var waking: [Int: ParkedReader] = [:]
            swap(&waking, &parked)
            effects.edit { effects in
                if effects.wake.isEmpty {
                    effects.wake = waking
                } else {
                    effects.wake.merge(waking) { earlier, _ in earlier }
                }
                effects.wakeFinishes = finishing
            }
        }

        /// Takes every parked feed reader out of the list, to hand its batch once the event is fully applied
        /// or, when the effects finish readers, to end its stream.
        @inlinable
        mutating func wakeParkedFeeds(into effects: inout Effects?) {
            guard !parkedFeeds.isEmpty else { return }
            var waking: [Int: ParkedReader] = [:]
            swap(&waking, &parkedFeeds)
            effects.edit { effects in
                for (id, reader) in waking { effects.wakeFeeds.append((id, reader, nil)) }
            }
        }

        /// Takes every watching feed of many machines whose cursor is below `sequence`, the number of the record being
        /// made, out of the list, to tell after the lock; a feed whose cursor is at or past it keeps watching.
        @inlinable
        mutating func wakeWatchers(recording sequence: Int, into effects: inout Effects?) {
            var waking: [RecordWatcher] = []
            if watchers.allSatisfy({ $0.after < sequence }) {
                // Every watcher is told, as nearly always: the list is handed over whole.
                swap(&waking, &watchers)
            } else {
                waking = watchers.filter { $0.after < sequence }
                watchers.removeAll { $0.after < sequence }
                if waking.isEmpty { return }
            }
            // Handed over whole when the effects hold none yet (they rarely do): no second list is made.
            effects.edit { effects in
                if effects.wakeWatchers.isEmpty {
                    effects.wakeWatchers = waking
                } else {
                    effects.wakeWatchers.append(contentsOf: waking)
                }
            }
        }

        /// The woken `states()` readers have now seen the state they are handed: the state after the whole
        /// event, retried postponed events included, the machine's `changes`th.
        @inlinable
        mutating func handOver(to woken: [Int: ParkedReader], changes: Int) {
            for id in woken.keys {
                guard slots[id] != nil else {
                    preconditionFailure("Internal inconsistency: parked reader \(id) has no slot")
                }
                slots[id]?.seen = changes
            }
        }

        /// Parks reader `id`, of `kind`, until the next change (the next record, for a feed reader).
        @inlinable
        mutating func park(_ id: Int, kind: ReaderKind, _ continuation: ParkedReader) {
            precondition(
                parked[id] == nil && parkedFeeds[id] == nil, "Internal inconsistency: reader \(id) parked twice")
            switch kind {
            case .states: parked[id] = continuation
            case .records: parkedFeeds[id] = continuation
            }
        }

        /// Takes reader `id` out of whichever list it is parked in.
        @inlinable
        mutating func unpark(_ id: Int) -> ReaderExitAction {
            guard let reader = parked.removeValue(forKey: id) ?? parkedFeeds.removeValue(forKey: id) else {
                return .none
            }
            return .finish(reader)
        }
    }
}
