import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The engine's decisions: everything the machine's lock protects, and the methods that change it.
//
// Nothing here locks, starts a task, cancels one or calls a reporter. Every input is a `mutating` method
// that decides, changes the core and returns what must happen once the lock is released (``Effects``); the
// machine (StateMachine.swift) owns the lock, performs the effects after unlocking, and attaches the tasks
// it created back to the core by id (``Core/attach(run:task:)``, ``Core/attach(timer:task:)``).

extension StateMachine {
    /// One `whileIn` registration: which states it runs in and what it runs.
    @usableFromInline
    struct Registration: Sendable {
        @usableFromInline let id: Int
        @usableFromInline let label: String
        @usableFromInline let predicate: @Sendable (State) -> Bool
        @usableFromInline let work: @Sendable (Sender) async -> Void

        @inlinable
        init(
            id: Int, label: String, predicate: @escaping @Sendable (State) -> Bool,
            work: @escaping @Sendable (Sender) async -> Void
        ) {
            self.id = id
            self.label = label
            self.predicate = predicate
            self.work = work
        }
    }

    /// One running activation of a registration. Its task is `nil` from the decision to start it until the
    /// machine, having created the task outside the lock, attaches it.
    @usableFromInline
    struct ActiveRun: Sendable {
        @usableFromInline let registration: Registration
        @usableFromInline let run: WorkRun
        @usableFromInline var task: Task<Void, Never>?

        @inlinable
        init(registration: Registration, run: WorkRun, task: Task<Void, Never>?) {
            self.registration = registration
            self.run = run
            self.task = task
        }
    }

    /// The state timeout armed for the current visit; its task is attached like a run's.
    @usableFromInline
    struct ArmedTimer: Sendable {
        @usableFromInline let id: Int
        @usableFromInline let deadline: AnyClock.Instant
        @usableFromInline let event: Event
        @usableFromInline var task: Task<Void, Never>?

        @inlinable
        init(id: Int, deadline: AnyClock.Instant, event: Event, task: Task<Void, Never>?) {
            self.id = id
            self.deadline = deadline
            self.event = event
            self.task = task
        }
    }

    /// What exists only while the machine runs: work, its timer and the events waiting for a state change.
    @usableFromInline
    struct Running: Sendable {
        @usableFromInline var registrations: [Registration] = []
        /// The activations of the current visit, at most one per registration.
        @usableFromInline var runs: [ActiveRun] = []
        @usableFromInline var timer: ArmedTimer?
        /// Events the transition function postponed, oldest first; retried after the next `.to`.
        @usableFromInline var postponed: [Event] = []
        /// The run of the current visit itself, made when ``StateMachine/sendAndBind(_:)`` first binds a
        /// sender to it; it ends with the visit.
        @usableFromInline var visitRun: WorkRun?

        @inlinable init() {}

        /// Whether a `.to` has anything to end or start besides the state itself.
        @inlinable var isIdle: Bool {
            registrations.isEmpty && runs.isEmpty && timer == nil && visitRun == nil
        }
    }

    /// The machine's lifecycle. The data of work lives in `running` only, so a stopped machine cannot
    /// hold a timer, a run or a postponed event.
    @usableFromInline
    enum Phase: Sendable {
        /// Events are applied; work and timers run.
        case running(Running)
        /// ``StateMachine/stop()`` was called: the state is final, readers finish, work is over.
        case stopped
        /// Only while a method of the core holds the running data outside the enum, so that changing it
        /// never copies its arrays. Seen anywhere else, it is an internal inconsistency.
        case modifying
    }

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

    /// A parked feed reader taken out to wake, with the batch it is handed once the decision is settled.
    @usableFromInline
    struct WokenFeedReader: Sendable {
        @usableFromInline let id: Int
        @usableFromInline let reader: ParkedReader
        /// Set by ``Core/settle(some:)``; `nil` ends the reader's stream.
        @usableFromInline var batch: Reading?

        @inlinable
        init(id: Int, reader: ParkedReader) {
            self.id = id
            self.reader = reader
        }
    }

    /// A run of work to start once the lock is released.
    @usableFromInline
    struct RunStart: Sendable {
        @usableFromInline let run: WorkRun
        @usableFromInline let work: @Sendable (Sender) async -> Void

        @inlinable
        init(run: WorkRun, work: @escaping @Sendable (Sender) async -> Void) {
            self.run = run
            self.work = work
        }
    }

    /// A state timeout to start once the lock is released.
    @usableFromInline
    struct TimerStart: Sendable {
        @usableFromInline let id: Int
        @usableFromInline let visit: Int
        @usableFromInline let deadline: AnyClock.Instant
        @usableFromInline let event: Event

        @inlinable
        init(id: Int, visit: Int, deadline: AnyClock.Instant, event: Event) {
            self.id = id
            self.visit = visit
            self.deadline = deadline
            self.event = event
        }
    }

    /// What the machine does after releasing the lock, in this order: cancel, start, arm, wake, report.
    @usableFromInline
    struct Effects: Sendable {
        /// Tasks of ended runs and disarmed timers.
        @usableFromInline var cancel: [Task<Void, Never>] = []
        @usableFromInline var start: [RunStart] = []
        @usableFromInline var arm: [TimerStart] = []
        /// Parked `states()` readers to resume with ``wakeWith``, by reader id.
        @usableFromInline var wake: [Int: ParkedReader] = [:]
        /// Parked feed readers to resume, each with its own batch.
        @usableFromInline var wakeFeeds: [WokenFeedReader] = []
        /// Feeds of many machines (``StateMachine/records(of:after:)``) to tell that this machine recorded.
        @usableFromInline var wakeWatchers: [RecordWatcher] = []
        /// Whether the woken readers' streams end (stop) rather than take the state.
        @usableFromInline var wakeFinishes = false
        /// The state handed to the woken readers (set when the decision is settled); `nil` ends them.
        @usableFromInline var wakeWith: State?
        /// The reports this caller must deliver, in order, before it asks for more
        /// (``Core/nextReports(first:rest:)``), when it was handed several. A single report is handed
        /// beside the effects instead (``Core/settle(_:report:)``), so that these stay small: they are
        /// copied on every event, traced or not.
        @usableFromInline var reports: [Note] = []
        /// The run ``StateMachine/sendAndBind(_:)`` binds its sender to.
        @usableFromInline var bound: WorkRun?
        /// Set when this caller's reports queued behind another thread's delivery: it waits, blocked, until a
        /// deliverer takes them or hands it the delivery.
        @usableFromInline var waiter: ReportWaiter?

        @inlinable init() {}

        @inlinable var isEmpty: Bool {
            cancel.isEmpty && start.isEmpty && arm.isEmpty && wake.isEmpty && wakeFeeds.isEmpty
                && wakeWatchers.isEmpty && reports.isEmpty && bound == nil && waiter == nil
        }
    }

    /// Where an event came from, which decides whether the machine may refuse it before deciding.
    @usableFromInline
    enum Origin: Sendable {
        /// `send`: always applied while running.
        case anyone
        /// A ``Sender``: applied only while its run is live.
        case sender(WorkRun)
        /// A state timeout: applied only while that timer, armed in `visit`, is still the armed one.
        case timer(id: Int, visit: Int)
    }

    /// Everything the lock protects. Its methods decide; the machine performs the effects they return.
    @usableFromInline
    struct Core: Sendable {
        @usableFromInline var state: State
        @usableFromInline var visit: Int
        @usableFromInline var sequence = 0
        @usableFromInline var history: HistoryRing<Record>
        @usableFromInline var phase: Phase = .running(Running())
        /// Counts `.to` and `.update` decisions: what readers compare to know whether they are behind.
        @usableFromInline var changes = 0
        /// Every reader, `states()` and feed, by id: found in constant time, so waking or ending N readers is
        /// linear.
        @usableFromInline var readers: [Int: ReaderSlot] = [:]
        /// The `states()` readers waiting for a change, by id; being in here is what being parked means.
        @usableFromInline var parked: [Int: ParkedReader] = [:]
        /// The feed readers waiting for the next record, by id: apart from ``parked`` so that a record that
        /// changes nothing looks at feed readers only.
        @usableFromInline var parkedFeeds: [Int: ParkedReader] = [:]
        /// The feeds of many machines waiting for this machine's next record: each is told once, after the
        /// lock, and watches again when it reads (``RecordsOfMany``), so a burst of records wakes it once.
        @usableFromInline var watchers: [RecordWatcher] = []
        /// Whether a caller is delivering reports; shared with the machine, whose deliverer steps down
        /// through it without the lock (``ReportDelivery``).
        @usableFromInline let delivery: ReportDelivery
        /// Notes of applied events that no deliverer has taken yet, oldest first.
        @usableFromInline var notes: [Note] = []
        /// How many notes were ever queued, and how many deliverers ever took: a waiting sender's reports
        /// are taken once ``takenNotes`` reaches its ticket.
        @usableFromInline var queuedNotes = 0
        @usableFromInline var takenNotes = 0
        /// ``queuedNotes`` when a caller last settled: what tells a caller whether it noted anything.
        @usableFromInline var settledNotes = 0
        /// The senders waiting for their notes to be taken, oldest (lowest ticket) first.
        @usableFromInline var waiters: [ReportWaiter] = []
        /// The emptied buffer the last deliverer of several notes gave back, kept so that notes cost no
        /// allocation.
        @usableFromInline var spare: [Note] = []
        /// The lowest level of report anyone takes (`nil`: no reporter), so nothing is noted for nobody.
        @usableFromInline let reportLevel: Report.Level?
        @usableFromInline let postponeLimit: Int
        @usableFromInline var nextID = 0

        @usableFromInline
        init(
            state: State, visit: Int, historyLimit: Int, postponeLimit: Int, reportLevel: Report.Level?,
            delivery: ReportDelivery
        ) {
            self.state = state
            self.delivery = delivery
            self.visit = visit
            self.history = HistoryRing(capacity: historyLimit)
            self.postponeLimit = postponeLimit
            self.reportLevel = reportLevel
        }

        @inlinable
        mutating func makeID() -> Int {
            nextID += 1
            return nextID
        }

        @inlinable
        var isStopped: Bool {
            switch phase {
            case .running: false
            case .stopped: true
            case .modifying: preconditionFailure("Internal inconsistency: the core was read while modifying")
            }
        }

        /// Whether a report at `level` would reach the reporter.
        @inlinable
        func wants(_ level: Report.Level) -> Bool {
            guard let reportLevel else { return false }
            return level >= reportLevel
        }

        /// Runs `body` on the running data in place (no copy of its arrays); `nil` once stopped.
        @inlinable
        mutating func withRunning<Result>(_ body: (inout Running, inout Core) -> Result) -> Result? {
            switch phase {
            case .running(var running):
                phase = .modifying
                defer { phase = .running(running) }
                return body(&running, &self)
            case .stopped:
                return nil
            case .modifying:
                preconditionFailure("Internal inconsistency: the running data is already being modified")
            }
        }

        // MARK: - Events

        /// Refuses or applies one event; returns the outcome and what to do after the lock is released.
        /// With `bind`, the effects carry the run of the visit the event's own decision left the machine
        /// in (before any retried postponed event moves it on). When this caller is to deliver exactly one
        /// report, it is put in `report`.
        @inlinable
        mutating func apply(
            _ event: Event, origin: Origin, bind: Bool, transition: TransitionFunction,
            clock: AnyClock, report: inout Note?
        ) -> (Outcome, Effects?) {
            var effects: Effects?
            guard case .running = phase else { return refuseStopped(event, origin: origin, report: &report) }
            switch origin {
            case .anyone:
                break
            case .sender(let run):
                if let cause = run.cause { return refuseStale(event, run: run, cause: cause, report: &report) }
            case .timer(let id, let timerVisit):
                // A timer that lost the race with the end of its visit never delivers, and is not an event.
                guard disarm(timer: id) else {
                    if wants(.debug) { note(.timeoutExpired(visit: timerVisit, event: event)) }
                    return (.stale, settle(consume effects, report: &report))
                }
            }
            let before = state
            let decision = transition(before, event)
            var outcome = Outcome(decision)
            let source: NoteSource = if case .timer = origin { .timer } else { .event }
            switch consume decision {
            case .to(let next, let stateTimeout):
                let leftVisit = visit
                state = next
                visit += 1
                if stateTimeout != nil || !isIdle { enter(stateTimeout, leaving: before, clock: clock, into: &effects) }
                publish(into: &effects)
                record(event, visit: leftVisit, before: before, outcome: outcome, source: source, into: &effects)
                if bind { bindVisit(into: &effects) }
                if hasPostponed { retryPostponed(transition: transition, clock: clock, into: &effects) }
                return (outcome, settle(consume effects, report: &report))
            case .update(let next):
                state = next
                if hasRegistrations { update(leaving: before, into: &effects) }
                publish(into: &effects)
            case .postpone:
                if !postpone(event) { outcome = .overflowed }
            case .stay, .ignore, .invalid:
                break
            }
            record(event, visit: visit, before: before, outcome: outcome, source: source, into: &effects)
            if bind { bindVisit(into: &effects) }
            return (outcome, settle(consume effects, report: &report))
        }

        /// Whether a `.to` has anything to end or start besides the state itself.
        @inlinable var isIdle: Bool {
            if case .running(let running) = phase { running.isIdle } else { true }
        }

        @inlinable var hasPostponed: Bool {
            if case .running(let running) = phase { !running.postponed.isEmpty } else { false }
        }

        @inlinable var hasRegistrations: Bool {
            if case .running(let running) = phase { !running.registrations.isEmpty } else { false }
        }

        /// Keeps `event` for the next `.to`; `false` when `postponeLimit` events already wait.
        @inlinable
        mutating func postpone(_ event: Event) -> Bool {
            withRunning { running, core in
                guard running.postponed.count < core.postponeLimit else { return false }
                running.postponed.append(event)
                return true
            } ?? false
        }

        /// Empties the postponed queue and returns what it held.
        @inlinable
        mutating func takePostponed() -> [Event] {
            withRunning { running, _ -> [Event] in
                defer { running.postponed = [] }
                return running.postponed
            } ?? []
        }

        /// Disarms timer `id` as it fires; `false` when it is no longer the armed one.
        @inlinable
        mutating func disarm(timer id: Int) -> Bool {
            withRunning { running, _ in
                guard running.timer?.id == id else { return false }
                running.timer = nil
                return true
            } ?? false
        }

        /// After ``StateMachine/stop()``: a sender's event is stale (its run was ended by the stop, or
        /// earlier) and recorded; anything else is not looked at.
        @inlinable
        mutating func refuseStopped(_ event: Event, origin: Origin, report: inout Note?) -> (Outcome, Effects?) {
            switch origin {
            case .anyone, .timer:
                return (.stopped, nil)
            case .sender(let run):
                guard let cause = run.cause else {
                    preconditionFailure("Internal inconsistency: run \(run.id) is live in a stopped machine")
                }
                return refuseStale(event, run: run, cause: cause, report: &report)
            }
        }

        /// Drops an event whose run has ended: recorded with outcome `.stale` and noted with the cause.
        @inlinable
        mutating func refuseStale(
            _ event: Event, run: WorkRun, cause: CancellationCause, report: inout Note?
        ) -> (Outcome, Effects?) {
            var effects: Effects?
            record(event, visit: visit, before: state, outcome: .stale, source: .stale(run), into: &effects)
            return (.stale, settle(consume effects, report: &report))
        }

        /// Retries the postponed events after a `.to`, oldest first, each in the visit current when its
        /// turn comes (gen_statem: postponed events go to the front of the queue on a state change).
        ///
        /// An event postponed again waits for the next `.to`; when a retried event itself moves, the
        /// events postponed again so far are older than the ones not yet retried, so they go first.
        @inlinable
        mutating func retryPostponed(
            transition: TransitionFunction, clock: AnyClock, into effects: inout Effects?
        ) {
            var pending = takePostponed()
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
                    enter(stateTimeout, leaving: before, clock: clock, into: &effects)
                    publish(into: &effects)
                    let again = takePostponed()
                    if !again.isEmpty {
                        pending = again + pending[next...]
                        next = 0
                    }
                case .update(let target):
                    state = target
                    update(leaving: before, into: &effects)
                    publish(into: &effects)
                case .postpone:
                    // Never over the limit: every event here came out of the queue that held at most that many.
                    _ = postpone(event)
                case .stay, .ignore, .invalid:
                    break
                }
                record(event, visit: recordVisit, before: before, outcome: outcome, source: .retry, into: &effects)
            }
        }

        /// Appends a record of `event` to the history, and notes it when the reporter takes its level.
        @inlinable
        mutating func record(
            _ event: Event, visit recordVisit: Int, before: State, outcome: Outcome, source: NoteSource,
            into effects: inout Effects?
        ) {
            sequence += 1
            if !parkedFeeds.isEmpty { wakeParkedFeeds(into: &effects) }
            if !watchers.isEmpty { wakeWatchers(into: &effects) }
            if let reportLevel, source.level(of: outcome) >= reportLevel {
                note(
                    .record(
                        RecordNote(
                            visit: recordVisit, before: before, event: event, outcome: outcome, after: state,
                            source: source, postponeLimit: postponeLimit)))
            }
            guard history.capacity > 0 else { return }
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
        }

        // MARK: - Work and timers

        /// The rarer half of a `.to`: ends the old visit's runs and timer, starts the new visit's.
        @inlinable
        mutating func enter(
            _ stateTimeout: StateTimeout<Event>?, leaving before: State, clock: AnyClock,
            into effects: inout Effects?
        ) {
            _ = withRunning { running, core in
                core.end(&running.runs, cause: .stateExited, state: before, into: &effects)
                running.visitRun?.end(.stateExited)
                running.visitRun = nil
                if let task = running.timer?.task { effects.edit { $0.cancel.append(task) } }
                running.timer = nil
                if let stateTimeout {
                    let timer = ArmedTimer(
                        id: core.makeID(), deadline: clock.now.advanced(by: stateTimeout.after),
                        event: stateTimeout.event,
                        task: nil)
                    running.timer = timer
                    effects.edit {
                        $0.arm.append(
                            TimerStart(id: timer.id, visit: core.visit, deadline: timer.deadline, event: timer.event))
                    }
                }
                for registration in running.registrations where registration.predicate(core.state) {
                    core.start(registration, in: &running, into: &effects)
                }
            }
        }

        /// Across an `.update`: ends the runs whose predicate no longer holds (their senders go stale at
        /// once) and starts a new run of each registration whose predicate now holds and has none.
        @inlinable
        mutating func update(leaving before: State, into effects: inout Effects?) {
            _ = withRunning { running, core in
                guard !running.registrations.isEmpty else { return }
                let state = core.state
                var ended: [ActiveRun] = []
                running.runs.removeAll { run in
                    if run.registration.predicate(state) { return false }
                    ended.append(run)
                    return true
                }
                core.end(&ended, cause: .stateExited, state: before, into: &effects)
                for registration in running.registrations
                where registration.predicate(state)
                    && !running.runs.contains(where: { $0.registration.id == registration.id })
                {
                    core.start(registration, in: &running, into: &effects)
                }
            }
        }

        /// Starts one run of `registration` in the current visit; its task is created after the lock.
        @inlinable
        mutating func start(_ registration: Registration, in running: inout Running, into effects: inout Effects?) {
            let run = WorkRun(id: makeID(), label: registration.label, visit: visit)
            running.runs.append(ActiveRun(registration: registration, run: run, task: nil))
            effects.edit { $0.start.append(RunStart(run: run, work: registration.work)) }
        }

        /// Ends `runs` with `cause`: their senders are stale from now on; their tasks are cancelled after
        /// the lock (a run not yet attached is cancelled when it is).
        @inlinable
        mutating func end(
            _ runs: inout [ActiveRun], cause: CancellationCause, state: State, into effects: inout Effects?
        ) {
            guard !runs.isEmpty else { return }
            for active in runs {
                active.run.end(cause)
                if let task = active.task { effects.edit { $0.cancel.append(task) } }
                if wants(.debug) {
                    note(
                        .cancelled(
                            label: active.registration.label, visit: active.run.visit, cause: cause, state: state))
                }
            }
            runs.removeAll()
        }

        /// Binds the effects to the current visit's own run, making it on first use.
        @inlinable
        mutating func bindVisit(into effects: inout Effects?) {
            let run =
                withRunning { running, core in
                    if let run = running.visitRun { return run }
                    let run = WorkRun(id: core.makeID(), label: nil, visit: core.visit)
                    running.visitRun = run
                    return run
                }
            effects.edit { $0.bound = run }
        }

        /// Registers `whileIn` work; it starts at once when the current state matches. `nil` once stopped.
        @inlinable
        mutating func register(
            label: String, predicate: @escaping @Sendable (State) -> Bool,
            work: @escaping @Sendable (Sender) async -> Void
        ) -> Effects? {
            var effects: Effects?
            _ = withRunning { running, core in
                let registration = Registration(id: core.makeID(), label: label, predicate: predicate, work: work)
                running.registrations.append(registration)
                if predicate(core.state) { core.start(registration, in: &running, into: &effects) }
            }
            return effects
        }

        /// Attaches the task created for run `id`; returns it to cancel when the run has already ended.
        @inlinable
        mutating func attach(run id: Int, task: Task<Void, Never>) -> Task<Void, Never>? {
            withRunning { running, _ in
                guard let index = running.runs.firstIndex(where: { $0.run.id == id }) else { return task }
                precondition(
                    running.runs[index].task == nil, "Internal inconsistency: run \(id) was attached twice")
                running.runs[index].task = task
                return nil
            } ?? task
        }

        /// Attaches the task created for timer `id`; returns it to cancel when the timer was disarmed.
        @inlinable
        mutating func attach(timer id: Int, task: Task<Void, Never>) -> Task<Void, Never>? {
            withRunning { running, _ in
                guard running.timer?.id == id else { return task }
                precondition(running.timer?.task == nil, "Internal inconsistency: timer \(id) was attached twice")
                running.timer?.task = task
                return nil
            } ?? task
        }

        /// Arms a timer that delivers `event` at `deadline` (a restored snapshot's pending timeout).
        @inlinable
        mutating func arm(event: Event, deadline: AnyClock.Instant) -> Effects? {
            var effects: Effects?
            _ = withRunning { running, core in
                precondition(running.timer == nil, "Internal inconsistency: a timer is already armed")
                let timer = ArmedTimer(id: core.makeID(), deadline: deadline, event: event, task: nil)
                running.timer = timer
                effects.edit {
                    $0.arm.append(TimerStart(id: timer.id, visit: core.visit, deadline: deadline, event: event))
                }
            }
            return effects
        }

        /// Stops the machine: ends every run with `machineStopped`, disarms the timer, drops the postponed
        /// events (they could only be retried after a state change, and there will be none) and wakes
        /// every parked reader so that its stream finishes. `nil` when already stopped.
        @inlinable
        mutating func stop() -> Effects? {
            guard case .running(var running) = phase else { return nil }
            phase = .stopped
            var effects: Effects?
            end(&running.runs, cause: .machineStopped, state: state, into: &effects)
            running.visitRun?.end(.machineStopped)
            if let task = running.timer?.task { effects.edit { $0.cancel.append(task) } }
            wakeParked(finishing: true, into: &effects)
            var report: Note?
            var settled = settle(consume effects, report: &report)
            if let report { settled.edit { $0.reports.insert(report, at: 0) } }
            return settled
        }

        // MARK: - Readers

        /// Marks a change for readers and takes the parked ones to wake. Readers that are not parked find
        /// out when they next ask, so a burst of events coalesces into one wake-up.
        @inlinable
        mutating func publish(into effects: inout Effects?) {
            changes &+= 1
            if !parked.isEmpty { wakeParked(finishing: false, into: &effects) }
        }

        /// Takes every parked `states()` reader out of the list: to hand the state once the event is fully
        /// applied (``settle(some:)``), or with `finishing`, to end its stream. Finishing also ends the parked
        /// feed readers: having caught up, they have nothing left to read.
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
        /// (``settle(some:)``) or, when the effects finish readers, to end its stream.
        @inlinable
        mutating func wakeParkedFeeds(into effects: inout Effects?) {
            guard !parkedFeeds.isEmpty else { return }
            var waking: [Int: ParkedReader] = [:]
            swap(&waking, &parkedFeeds)
            effects.edit { effects in
                for (id, reader) in waking { effects.wakeFeeds.append(WokenFeedReader(id: id, reader: reader)) }
            }
        }

        /// Takes every watching feed of many machines out of the list, to tell after the lock.
        @inlinable
        mutating func wakeWatchers(into effects: inout Effects?) {
            var waking: [RecordWatcher] = []
            swap(&waking, &watchers)
            effects.edit { $0.wakeWatchers.append(contentsOf: waking) }
        }

        /// The woken `states()` readers have now seen the state they are handed: the state after the whole
        /// event, retried postponed events included.
        @inlinable
        mutating func handOver(to woken: [Int: ParkedReader]) -> State {
            for id in woken.keys {
                guard readers[id] != nil else {
                    preconditionFailure("Internal inconsistency: parked reader \(id) has no slot")
                }
                readers[id]?.seen = changes
            }
            return state
        }

        /// The woken feed reader `id` takes its batch: the records a record's arrival gave it.
        @inlinable
        mutating func handOverBatch(to id: Int) -> Reading {
            guard case .took(let reading) = take(reader: id) else {
                preconditionFailure("Internal inconsistency: feed reader \(id) woken with nothing to read")
            }
            return reading
        }

        // MARK: - Reports

        /// Queues `note`, for this caller to deliver (when nobody is delivering) or for the caller that is.
        @inlinable
        mutating func note(_ note: Note) {
            notes.append(note)
            queuedNotes += 1
        }

        /// Hands the queued notes to whoever delivers reports, so that they reach the reporter in the order
        /// their events were applied: to this caller when nobody is delivering (a single one in `report`,
        /// several in the effects), else they stay queued for the caller that is.
        @inlinable @inline(__always)
        mutating func settle(_ effects: consuming Effects?, report: inout Note?) -> Effects? {
            var effects = consume effects
            if case .some = effects { settle(some: &effects) }
            // Only a caller that noted something: notes are queued only while someone delivers them, and a
            // caller with no report of its own has nothing to wait for.
            if queuedNotes != settledNotes {
                settledNotes = queuedNotes
                handOutNotes(report: &report, effects: &effects)
            }
            return effects
        }

        /// Settles `effects` (never `nil` here) in place, and empties it to `nil` when nothing is left to do:
        /// changed through the optional, never copied out of it (a copy would retain every array in it).
        @inlinable
        mutating func settle(some effects: inout Effects?) {
            if effects!.wakeFinishes == false && !effects!.wake.isEmpty {
                effects!.wakeWith = handOver(to: effects!.wake)
            }
            if effects!.wakeFinishes == false && !effects!.wakeFeeds.isEmpty {
                for index in effects!.wakeFeeds.indices {
                    effects!.wakeFeeds[index].batch = handOverBatch(to: effects!.wakeFeeds[index].id)
                }
            }
            if effects!.isEmpty { effects = nil }
        }

        /// Gives the queued notes to this caller when it is to deliver them; else, unless it is inside a
        /// sink, makes it wait for another deliverer to take them or to hand it the delivery.
        @inlinable
        mutating func handOutNotes(report: inout Note?, effects: inout Effects?) {
            if delivery.claim() {
                if notes.count == 1 {
                    report = notes.removeLast()
                    takenNotes += 1
                } else {
                    var rest: [Note] = []
                    handOutNotes(first: &report, rest: &rest, atMost: notes.count)
                    effects.edit { $0.reports = rest }
                }
            } else if !DeliveringThread.isDelivering {
                // Another thread delivers: this sender waits, blocked, for its turn, so that the deliverer
                // can hand the delivery over instead of draining everyone's reports. A send from inside a
                // sink (of any machine) never waits: the deliverer it would wait for may be waiting for it.
                let waiter = ReportWaiter(ticket: queuedNotes)
                waiters.append(waiter)
                effects.edit { $0.waiter = waiter }
            }
        }

        /// Moves the oldest `count` queued notes to the deliverer: a single note by itself, so that the queue
        /// keeps its buffer; all of several in the queue's buffer, which takes the spare in its place.
        @inlinable
        mutating func handOutNotes(first: inout Note?, rest: inout [Note], atMost count: Int) {
            let count = min(count, notes.count)
            takenNotes += count
            if notes.count == 1 {
                first = notes.removeLast()
            } else if count == notes.count {
                swap(&notes, &spare)
                swap(&spare, &rest)
            } else {
                rest.append(contentsOf: notes[..<count])
                notes.removeFirst(count)
            }
        }

        /// How many reports of other senders a deliverer delivers, after its own, before it hands the
        /// delivery to a waiting sender: what bounds the time one `send` spends in sinks.
        @inlinable static var handOverAfter: Int { 64 }

        /// What a deliverer does next (``nextReports(first:rest:allowance:)``).
        @usableFromInline
        enum NextReports {
            /// It delivers the notes it was given, then asks again; `taken` are the waiting senders whose
            /// notes it took, to resume after the lock.
            case deliver(taken: [ReportWaiter])
            /// Nothing is queued: nobody delivers from now on.
            case done
            /// It has delivered its share; `to`, resumed after the lock, delivers the rest.
            case handOver(to: ReportWaiter)
        }

        /// Gives the deliverer the notes queued while it delivered, taking back the emptied buffer it returns
        /// (kept as the spare): at most `allowance` more, then it hands the delivery to the oldest waiting
        /// sender. With nobody waiting (the rest were sent from sinks) it goes on, as nobody else would.
        @inlinable
        mutating func nextReports(first: inout Note?, rest: inout [Note], allowance: Int) -> NextReports {
            if rest.capacity > 0 {
                swap(&spare, &rest)
                rest = []
            }
            if notes.isEmpty {
                precondition(waiters.isEmpty, "Internal inconsistency: \(waiters.count) senders wait for no note")
                delivery.stepDown()
                return .done
            }
            if allowance <= 0, !waiters.isEmpty {
                delivery.handOver()
                return .handOver(to: waiters.removeFirst())
            }
            delivery.keep()
            handOutNotes(first: &first, rest: &rest, atMost: allowance > 0 ? allowance : notes.count)
            let taken = waiters.prefix { $0.ticket <= takenNotes }
            guard !taken.isEmpty else { return .deliver(taken: []) }
            waiters.removeFirst(taken.count)
            return .deliver(taken: Array(taken))
        }
    }
}

/// Whether a caller is delivering a machine's reports, in one atomic word beside the machine's lock.
///
/// Callers decide under the lock whether they deliver (``claim()``), and queue their notes for the deliverer
/// when another does; the deliverer, done with its notes, steps down with one compare-and-exchange
/// (``stepDownUnlessQueued()``) instead of taking the lock again to look for more. The word says whether
/// notes were queued for it meanwhile, in which case it takes the lock to fetch them. So a sender whose
/// reports nobody else is delivering takes the lock once per event, as a silent machine does.
@usableFromInline
final class ReportDelivery: Sendable {
    /// Nobody delivers. Only a caller holding the lock changes the word from here.
    @usableFromInline static var idle: UInt8 { 0 }
    /// A caller delivers, and no note has been queued for it since it last looked.
    @usableFromInline static var delivering: UInt8 { 1 }
    /// A caller delivers, and notes wait in the core for it.
    @usableFromInline static var queued: UInt8 { 2 }

    @usableFromInline let word = Atomic<UInt8>(0)

    @inlinable init() {}

    /// Under the lock, with notes queued: `true` when this caller is to deliver them (nobody was, or the
    /// deliverer has just stepped down); `false` when the active deliverer will, which it is told.
    @inlinable
    func claim() -> Bool {
        if word.load(ordering: .acquiring) == Self.idle {
            word.store(Self.delivering, ordering: .relaxed)
            return true
        }
        let (exchanged, found) = word.compareExchange(
            expected: Self.delivering, desired: Self.queued, ordering: .acquiringAndReleasing)
        if exchanged || found == Self.queued { return false }
        // The deliverer stepped down between the load and the exchange: its reports are all delivered.
        word.store(Self.delivering, ordering: .relaxed)
        return true
    }

    /// Outside the lock, by the deliverer with nothing left in hand: steps down unless notes were queued
    /// for it, which it must then fetch under the lock (``StateMachine/Core/nextReports(first:rest:)``).
    @inlinable
    func stepDownUnlessQueued() -> Bool {
        word.compareExchange(expected: Self.delivering, desired: Self.idle, ordering: .acquiringAndReleasing)
            .exchanged
    }

    /// Under the lock, by the deliverer finding nothing queued: nobody delivers from now on.
    @inlinable
    func stepDown() { word.store(Self.idle, ordering: .releasing) }

    /// Under the lock, by the deliverer taking the queued notes: it goes on delivering.
    @inlinable
    func keep() { word.store(Self.delivering, ordering: .relaxed) }

    /// Under the lock, by the deliverer handing the delivery to a waiting sender, which will fetch the
    /// queued notes.
    @inlinable
    func handOver() { word.store(Self.queued, ordering: .releasing) }

    /// Whether a caller is delivering.
    @inlinable
    var isActive: Bool { word.load(ordering: .acquiring) != Self.idle }
}

extension Optional {
    /// Changes the wrapped effects, making them first when there are none yet.
    @inlinable
    mutating func edit<State, Event>(_ body: (inout StateMachine<State, Event>.Effects) -> Void)
    where Wrapped == StateMachine<State, Event>.Effects {
        var effects = self ?? StateMachine<State, Event>.Effects()
        self = nil
        body(&effects)
        self = effects
    }
}
