extension StateMachine {
    /// One `whileIn` registration: which states it runs in and what it runs.
    @usableFromInline
    struct WorkRegistration: Sendable {
        @usableFromInline let id: Int
        @usableFromInline let label: String
        @usableFromInline let predicate: @Sendable (State) -> Bool
        @usableFromInline let work: @Sendable (Sender) async -> Void
    }

    /// One running piece of `whileIn` work, owned by the visit that started it.
    @usableFromInline
    struct ActiveWork: Sendable {
        @usableFromInline let registrationID: Int
        @usableFromInline let activity: WorkActivity
        @usableFromInline let task: Task<Void, Never>
    }

    /// The state timeout armed for the current visit.
    @usableFromInline
    struct ArmedTimeout: Sendable {
        @usableFromInline let visit: Int
        @usableFromInline let deadline: AnyClock.Instant
        @usableFromInline let event: Event
        @usableFromInline let task: Task<Void, Never>
    }

    /// One `states()` reader: which change it saw last, and the reader itself when it is waiting.
    ///
    /// A reader holds no copy of the state: it reads the machine's state when it takes one, so it
    /// always gets the newest, and an event costs readers nothing unless one of them is waiting.
    @usableFromInline
    struct ReaderSlot: Sendable {
        @usableFromInline let id: Int
        /// The value of ``Core/changes`` when this reader last took the state.
        @usableFromInline var seen: Int
        @usableFromInline var waiter: CheckedContinuation<Void, Never>?
        @usableFromInline var cancelled = false
    }

    /// What to do once the lock is released. Allocated only when there is something to do (work to
    /// cancel, a timer to cancel, a reader to wake, a report to make), so a plain event allocates nothing
    /// beyond its history record.
    @usableFromInline
    final class Aftermath: @unchecked Sendable {
        // Unchecked: built by one thread under the lock, then only read after it is released.
        /// The recorded event, for reports.
        @usableFromInline var record: Record?
        /// The state cancelled work ran in, for reports.
        @usableFromInline var state: State?
        @usableFromInline var cancelled: [ActiveWork] = []
        @usableFromInline var timers: [Task<Void, Never>] = []
        @usableFromInline var wake: [CheckedContinuation<Void, Never>] = []
        /// Records of postponed events retried after a `.to`, in the order they were applied, for reports.
        @usableFromInline var retried: [Record] = []

        @usableFromInline
        init() {}

        /// Takes over what `other` has to do, after what this one has (a retried event's `.to`).
        @usableFromInline
        func absorb(_ other: Aftermath) {
            if state == nil { state = other.state }
            cancelled += other.cancelled
            timers += other.timers
            wake += other.wake
            retried += other.retried
        }

        /// Cancels work and timers and wakes readers. Must run outside the lock: cancellation handlers
        /// run synchronously and may call back into the machine.
        @usableFromInline
        func perform() {
            for work in cancelled { work.task.cancel() }
            for timer in timers { timer.cancel() }
            for reader in wake { reader.resume() }
        }
    }

    /// Everything the lock protects. Its methods decide; the caller performs the effects they return.
    @usableFromInline
    struct Core: Sendable {
        @usableFromInline var state: State
        @usableFromInline var visit: Int
        @usableFromInline var sequence = 0
        @usableFromInline var history: HistoryRing<Record>
        @usableFromInline var stopped = false
        @usableFromInline var timeout: ArmedTimeout?
        @usableFromInline var registrations: [WorkRegistration] = []
        @usableFromInline var active: [ActiveWork] = []
        @usableFromInline var readers: [ReaderSlot] = []
        /// Counts `.to` and `.update` decisions: what readers compare to know whether they are behind.
        @usableFromInline var changes = 0
        /// How many readers are parked waiting for a change.
        @usableFromInline var parkedReaders = 0
        @usableFromInline var nextID = 0
        /// Events the transition function postponed, oldest first; retried after the next `.to`.
        @usableFromInline var postponed: [Event] = []
        /// How many events may wait in ``postponed``.
        @usableFromInline let postponeLimit: Int

        @usableFromInline
        init(state: State, visit: Int, historyLimit: Int, postponeLimit: Int) {
            self.state = state
            self.visit = visit
            self.history = HistoryRing(capacity: historyLimit)
            self.postponeLimit = postponeLimit
        }

        @usableFromInline
        mutating func makeID() -> Int {
            nextID += 1
            return nextID
        }

        /// Refuses or applies one event. Returns the outcome and, when there is anything to do after
        /// the lock is released (or `reporting` asks for the record), the aftermath.
        @inlinable
        mutating func apply(
            _ event: Event, origin: Origin, transition: TransitionFunction, machine: StateMachine, reporting: Bool
        ) -> (Outcome, Aftermath?) {
            if stopped { return (.stopped, nil) }
            switch origin {
            case .anyone:
                break
            case .sender(let senderVisit):
                if senderVisit != visit {
                    return (.stale, record(event, visit: visit, before: state, outcome: .stale, reporting: reporting))
                }
            case .timeout(let timerVisit):
                // A timer that lost the race with the end of its visit never delivers, and is not an event.
                if timerVisit != visit { return (.stale, reporting ? Aftermath() : nil) }
                timeout = nil
            }
            let before = state
            let decision = transition(before, event)
            let outcome = Outcome(decision)
            var aftermath: Aftermath?
            switch consume decision {
            case .to(let next, let stateTimeout):
                let leftVisit = visit
                state = next
                visit += 1
                if !active.isEmpty || timeout != nil || stateTimeout != nil || !registrations.isEmpty {
                    aftermath = enter(stateTimeout, leaving: before, machine: machine)
                }
                publish(into: &aftermath)
                aftermath = record(
                    event, visit: leftVisit, before: before, outcome: outcome, reporting: reporting, into: aftermath)
                if !postponed.isEmpty {
                    retryPostponed(transition: transition, machine: machine, reporting: reporting, into: &aftermath)
                }
                return (outcome, aftermath)
            case .update(let next):
                state = next
                if !registrations.isEmpty { aftermath = update(leaving: before, machine: machine) }
                publish(into: &aftermath)
            case .postpone:
                if postponed.count < postponeLimit {
                    postponed.append(event)
                } else {
                    return (
                        .overflowed,
                        record(event, visit: visit, before: before, outcome: .overflowed, reporting: reporting)
                    )
                }
            case .stay, .ignore, .invalid:
                break
            }
            return (
                outcome,
                record(event, visit: visit, before: before, outcome: outcome, reporting: reporting, into: aftermath)
            )
        }

        /// Retries the postponed events after a `.to`, oldest first, each in the visit current when its
        /// turn comes (gen_statem: postponed events go to the front of the queue on a state change).
        ///
        /// An event postponed again waits for the next `.to`; when a retried event itself moves, the
        /// events postponed again so far are older than the ones not yet retried, so they go first.
        @usableFromInline
        mutating func retryPostponed(
            transition: TransitionFunction, machine: StateMachine, reporting: Bool, into aftermath: inout Aftermath?
        ) {
            var pending = postponed
            postponed = []
            var next = 0
            while next < pending.count {
                let event = pending[next]
                next += 1
                let before = state
                let decision = transition(before, event)
                let outcome = Outcome(decision)
                let recordVisit = visit
                switch consume decision {
                case .to(let target, let stateTimeout):
                    state = target
                    visit += 1
                    let entered = enter(stateTimeout, leaving: before, machine: machine)
                    if let aftermath { aftermath.absorb(entered) } else { aftermath = entered }
                    publish(into: &aftermath)
                    if !postponed.isEmpty {
                        pending = postponed + pending[next...]
                        postponed = []
                        next = 0
                    }
                case .update(let target):
                    state = target
                    if !registrations.isEmpty, let updated = update(leaving: before, machine: machine) {
                        if let aftermath { aftermath.absorb(updated) } else { aftermath = updated }
                    }
                    publish(into: &aftermath)
                case .postpone:
                    // Never over the limit: every event here came out of the queue that held at most that many.
                    postponed.append(event)
                case .stay, .ignore, .invalid:
                    break
                }
                aftermath = record(
                    event, visit: recordVisit, before: before, outcome: outcome, reporting: reporting,
                    into: aftermath, retry: true)
            }
        }

        /// Appends a record of `event` to the history; hands it to the aftermath when reports need it
        /// (as its record, or among the retried ones for a retry).
        @inlinable
        mutating func record(
            _ event: Event, visit recordVisit: Int, before: State, outcome: Outcome, reporting: Bool,
            into aftermath: Aftermath? = nil, retry: Bool = false
        ) -> Aftermath? {
            sequence += 1
            guard history.capacity > 0 || reporting else { return aftermath }
            guard reporting else {
                if history.isFull {
                    // The steady state of a long-running machine: reuse the oldest slot field by field.
                    let sequence = sequence
                    let after = state
                    history.overwriteOldest { oldest in
                        oldest.sequence = sequence
                        oldest.visit = recordVisit
                        oldest.before = before
                        oldest.event = event
                        oldest.outcome = outcome
                        oldest.after = after
                    }
                } else {
                    history.append(
                        Record(
                            sequence: sequence, visit: recordVisit, before: before, event: event, outcome: outcome,
                            after: state))
                }
                return aftermath
            }
            let record = Record(
                sequence: sequence, visit: recordVisit, before: before, event: event, outcome: outcome, after: state)
            history.append(record)
            let result = aftermath ?? Aftermath()
            if retry { result.retried.append(record) } else { result.record = record }
            return result
        }

        /// The rarer half of a `.to`: ends the old visit's work and timer, starts the new visit's.
        @usableFromInline
        mutating func enter(_ stateTimeout: StateTimeout<Event>?, leaving before: State, machine: StateMachine)
            -> Aftermath
        {
            let aftermath = Aftermath()
            if !active.isEmpty {
                aftermath.state = before
                aftermath.cancelled = endWork(cause: .stateExited)
            }
            if let task = timeout?.task { aftermath.timers.append(task) }
            timeout = stateTimeout.map { machine.arm($0, visit: visit) }
            for registration in registrations where registration.predicate(state) {
                active.append(machine.start(registration, visit: visit))
            }
            return aftermath
        }

        /// Ends every running piece of work with `cause`; the caller cancels the tasks.
        @usableFromInline
        mutating func endWork(cause: CancellationCause) -> [ActiveWork] {
            let ended = active
            active.removeAll()
            for work in ended { work.activity.markCancelled(cause) }
            return ended
        }

        /// Across an `.update`: stops work whose predicate no longer holds and starts work whose
        /// predicate now holds.
        @usableFromInline
        mutating func update(leaving before: State, machine: StateMachine) -> Aftermath? {
            var ended: [ActiveWork] = []
            var kept: [ActiveWork] = []
            for work in active {
                let stillMatches = registrations.first { $0.id == work.registrationID }?.predicate(state) ?? false
                if stillMatches {
                    kept.append(work)
                } else {
                    work.activity.markCancelled(.stateExited)
                    ended.append(work)
                }
            }
            for registration in registrations
            where !kept.contains(where: { $0.registrationID == registration.id }) && registration.predicate(state) {
                kept.append(machine.start(registration, visit: visit))
            }
            active = kept
            guard !ended.isEmpty else { return nil }
            let aftermath = Aftermath()
            aftermath.state = before
            aftermath.cancelled = ended
            return aftermath
        }

        /// Marks a change for readers and collects the parked ones to wake. Readers that are not
        /// waiting find out when they next ask, so a burst of events coalesces into one wake-up.
        @inlinable
        mutating func publish(into aftermath: inout Aftermath?) {
            changes &+= 1
            if parkedReaders > 0 { wakeParkedReaders(into: &aftermath) }
        }

        @usableFromInline
        mutating func wakeParkedReaders(into aftermath: inout Aftermath?) {
            let wake = aftermath ?? Aftermath()
            for index in readers.indices {
                if let waiter = readers[index].waiter {
                    readers[index].waiter = nil
                    wake.wake.append(waiter)
                }
            }
            parkedReaders = 0
            aftermath = wake
        }

        /// Stops the machine and returns what to cancel and whom to wake.
        @usableFromInline
        mutating func stop() -> Aftermath? {
            guard !stopped else { return nil }
            stopped = true
            let aftermath = Aftermath()
            aftermath.state = state
            aftermath.cancelled = endWork(cause: .machineStopped)
            if let task = timeout?.task { aftermath.timers.append(task) }
            timeout = nil
            registrations.removeAll()
            // A stopped machine changes state no more, so nothing postponed could ever be retried.
            postponed.removeAll()
            var wake: Aftermath? = aftermath
            wakeParkedReaders(into: &wake)
            return aftermath
        }
    }
}
