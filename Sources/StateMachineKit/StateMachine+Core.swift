extension StateMachine {
    /// One `whileIn` registration: which states it runs in and what it runs.
    struct WorkRegistration: Sendable {
        let id: Int
        let label: String
        let predicate: @Sendable (State) -> Bool
        let work: @Sendable (Sender) async -> Void
    }

    /// One running piece of `whileIn` work, owned by the visit that started it.
    struct ActiveWork: Sendable {
        let registrationID: Int
        let activity: WorkActivity
        let task: Task<Void, Never>
    }

    /// The state timeout armed for the current visit.
    struct ArmedTimeout: Sendable {
        let visit: Int
        let deadline: AnyClock.Instant
        let event: Event
        let task: Task<Void, Never>
    }

    /// One `states()` reader: the newest state it has not seen yet, and the reader itself when it is waiting.
    struct ReaderSlot: Sendable {
        let id: Int
        var pending: State?
        var waiter: CheckedContinuation<Void, Never>?
        var cancelled = false
    }

    /// What to do once the lock is released: the decision's effects, in one value.
    struct Aftermath: Sendable {
        var outcome: Outcome
        /// The recorded event, for reports.
        var record: Record?
        /// The state cancelled work ran in, for reports.
        var state: State?
        var cancelled: [ActiveWork] = []
        var timer: Task<Void, Never>?
        var wake: [CheckedContinuation<Void, Never>] = []

        init(outcome: Outcome, record: Record? = nil) {
            self.outcome = outcome
            self.record = record
        }

        /// Cancels work and timers and wakes readers. Must run outside the lock: cancellation handlers
        /// run synchronously and may call back into the machine.
        func perform() {
            for work in cancelled { work.task.cancel() }
            timer?.cancel()
            for reader in wake { reader.resume() }
        }
    }

    /// Everything the lock protects. Its methods decide; the caller performs the effects they return.
    struct Core: Sendable {
        var state: State
        var visit: Int
        var sequence = 0
        var history: HistoryRing<Record>
        var stopped = false
        var timeout: ArmedTimeout?
        var registrations: [WorkRegistration] = []
        var active: [ActiveWork] = []
        var readers: [ReaderSlot] = []
        private var nextID = 0

        init(state: State, visit: Int, historyLimit: Int) {
            self.state = state
            self.visit = visit
            self.history = HistoryRing(capacity: historyLimit)
        }

        mutating func makeID() -> Int {
            nextID += 1
            return nextID
        }

        /// Appends a record of `event` and returns it.
        mutating func record(_ event: Event, before: State, outcome: Outcome) -> Record {
            sequence += 1
            let record = Record(
                sequence: sequence, visit: visit, before: before, event: event, outcome: outcome, after: state)
            history.append(record)
            return record
        }

        /// Refuses or applies one event.
        mutating func apply(
            _ event: Event, origin: Origin, transition: TransitionFunction, machine: StateMachine
        ) -> Aftermath {
            if stopped { return Aftermath(outcome: .stopped) }
            switch origin {
            case .anyone:
                break
            case .sender(let senderVisit):
                if senderVisit != visit {
                    return Aftermath(outcome: .stale, record: record(event, before: state, outcome: .stale))
                }
            case .timeout(let timerVisit):
                // A timer that lost the race with the end of its visit never delivers, and is not an event.
                if timerVisit != visit { return Aftermath(outcome: .stale) }
                timeout = nil
            }
            let before = state
            let decision = transition(before, event)
            var aftermath = Aftermath(outcome: Outcome(decision))
            switch decision {
            case .to(let next, let stateTimeout):
                let leftVisit = visit
                state = next
                if !active.isEmpty {
                    aftermath.state = before
                    aftermath.cancelled = endWork(cause: .stateExited)
                }
                aftermath.timer = timeout?.task
                // Record in the visit the event arrived in, then begin the next one.
                aftermath.record = recordIn(visit: leftVisit, event, before: before, outcome: .moved)
                visit += 1
                timeout = stateTimeout.map { machine.arm($0, visit: visit) }
                startMatchingWork(machine: machine)
                aftermath.wake = publish()
                return aftermath
            case .update(let next):
                state = next
                if !registrations.isEmpty {
                    aftermath.state = before
                    aftermath.cancelled = updateWork(machine: machine)
                }
                aftermath.wake = publish()
            case .stay, .ignore, .invalid:
                break
            }
            aftermath.record = record(event, before: before, outcome: aftermath.outcome)
            return aftermath
        }

        private mutating func recordIn(visit recordVisit: Int, _ event: Event, before: State, outcome: Outcome)
            -> Record
        {
            sequence += 1
            let record = Record(
                sequence: sequence, visit: recordVisit, before: before, event: event, outcome: outcome, after: state)
            history.append(record)
            return record
        }

        /// Ends every running piece of work with `cause`; the caller cancels the tasks.
        private mutating func endWork(cause: CancellationCause) -> [ActiveWork] {
            let ended = active
            active.removeAll()
            for work in ended { work.activity.markCancelled(cause) }
            return ended
        }

        /// Starts every registration whose predicate holds for the new visit.
        private mutating func startMatchingWork(machine: StateMachine) {
            for registration in registrations where registration.predicate(state) {
                active.append(machine.start(registration, visit: visit))
            }
        }

        /// Across an `.update`: stops work whose predicate no longer holds and starts work whose
        /// predicate now holds.
        private mutating func updateWork(machine: StateMachine) -> [ActiveWork] {
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
            return ended
        }

        /// Hands the new state to every reader, replacing whatever it has not read yet (newest only),
        /// and returns the waiting readers to wake.
        private mutating func publish() -> [CheckedContinuation<Void, Never>] {
            var wake: [CheckedContinuation<Void, Never>] = []
            for index in readers.indices {
                readers[index].pending = state
                if let waiter = readers[index].waiter {
                    readers[index].waiter = nil
                    wake.append(waiter)
                }
            }
            return wake
        }

        /// Stops the machine and returns what to cancel and whom to wake.
        mutating func stop() -> Aftermath {
            var aftermath = Aftermath(outcome: .stopped)
            guard !stopped else { return aftermath }
            stopped = true
            aftermath.state = state
            aftermath.cancelled = endWork(cause: .machineStopped)
            aftermath.timer = timeout?.task
            timeout = nil
            registrations.removeAll()
            for index in readers.indices {
                if let waiter = readers[index].waiter {
                    readers[index].waiter = nil
                    aftermath.wake.append(waiter)
                }
            }
            return aftermath
        }
    }
}
