// The core's work: `whileIn` registrations and their runs, the state timeout, the visit's own run, the
// inputs that change them (register, task attached, stop) and what a `.to` or an `.update` does to them.

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
        @usableFromInline var task: Task<Void, Never>? = nil

        /// A run whose task is not created yet.
        @inlinable
        init(registration: Registration, run: WorkRun) {
            (self.registration, self.run) = (registration, run)
        }
    }

    /// The state timeout armed for the current visit, `visit`; its task is attached like a run's.
    @usableFromInline
    struct ArmedTimer: Sendable {
        @usableFromInline let id: Int
        @usableFromInline let visit: Int
        @usableFromInline let deadline: AnyClock.Instant
        @usableFromInline let event: Event
        @usableFromInline var task: Task<Void, Never>? = nil

        @inlinable
        init(id: Int, visit: Int, deadline: AnyClock.Instant, event: Event) {
            (self.id, self.visit, self.deadline, self.event) = (id, visit, deadline, event)
        }
    }

    /// What exists only while the machine runs: `whileIn` work, the state timeout, the events waiting for a
    /// state change and the visit's own run.
    @usableFromInline
    struct Work: Sendable {
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

        /// Whether there is nothing at all: the machine is then ``Activity/idle``.
        @inlinable var isEmpty: Bool { isIdle && postponed.isEmpty }
    }
}

extension StateMachine.Core {
    @usableFromInline typealias Work = StateMachine.Work

    /// The rarer half of a `.to`: ends the old visit's runs and timer, starts the new visit's.
    @inlinable
    mutating func enter(
        _ stateTimeout: StateTimeout<Event>?, leaving before: State, clock: AnyClock, in work: inout Work,
        into effects: inout Effects?
    ) {
        end(&work.runs, cause: .stateExited, state: before, into: &effects)
        work.visitRun?.end(.stateExited)
        work.visitRun = nil
        if let task = work.timer?.task { effects.edit { $0.cancel.append(task) } }
        work.timer = nil
        if let stateTimeout {
            arm(stateTimeout.event, at: clock.now.advanced(by: stateTimeout.after), in: &work, into: &effects)
        }
        for registration in work.registrations where registration.predicate(state) {
            start(registration, in: &work, into: &effects)
        }
    }

    /// Across an `.update`: ends the runs whose predicate no longer holds (their senders go stale at
    /// once) and starts a new run of each registration whose predicate now holds and has none.
    @inlinable
    mutating func update(leaving before: State, in work: inout Work, into effects: inout Effects?) {
        guard !work.registrations.isEmpty else { return }
        let state = state
        // Only when a run is live: `removeAll(where:)` on an empty array still goes through the array's
        // uniqueness check and subrange replacement, a fifth of an `.update` on a machine whose work is not
        // running (callgrind: 1,264 -> 1,026 instructions a send).
        if !work.runs.isEmpty {
            var ended: [StateMachine.ActiveRun] = []
            work.runs.removeAll { run in
                if run.registration.predicate(state) { return false }
                ended.append(run)
                return true
            }
            end(&ended, cause: .stateExited, state: before, into: &effects)
        }
        for registration in work.registrations
        where registration.predicate(state) && !work.runs.contains(where: { $0.registration.id == registration.id }) {
            start(registration, in: &work, into: &effects)
        }
    }

    /// Starts one run of `registration` in the current visit; its task is created after the lock.
    @inlinable
    mutating func start(
        _ registration: StateMachine.Registration, in work: inout Work, into effects: inout Effects?
    ) {
        let active = StateMachine.ActiveRun(
            registration: registration, run: WorkRun(id: makeID(), label: registration.label, visit: visit))
        work.runs.append(active)
        effects.edit { $0.start.append(active) }
    }

    /// Arms the visit's timer, delivering `event` at `deadline`; its task is created after the lock.
    @inlinable
    mutating func arm(
        _ event: Event, at deadline: AnyClock.Instant, in work: inout Work, into effects: inout Effects?
    ) {
        let timer = StateMachine.ArmedTimer(id: makeID(), visit: visit, deadline: deadline, event: event)
        work.timer = timer
        effects.edit { $0.arm.append(timer) }
    }

    /// Ends `runs` with `cause`: their senders are stale from now on; their tasks are cancelled after
    /// the lock (a run not yet attached is cancelled when it is).
    @inlinable
    mutating func end(
        _ runs: inout [StateMachine.ActiveRun], cause: CancellationCause, state: State, into effects: inout Effects?
    ) {
        guard !runs.isEmpty else { return }
        for active in runs {
            active.run.end(cause)
            if let task = active.task { effects.edit { $0.cancel.append(task) } }
            if wants(.debug) {
                live.reports.note(
                    .cancelled(label: active.registration.label, visit: active.run.visit, cause: cause, state: state))
            }
        }
        runs.removeAll()
    }

    /// The current visit's own run, made on first use.
    @inlinable
    mutating func visitRun(in work: inout Work) -> WorkRun {
        if let run = work.visitRun { return run }
        let run = WorkRun(id: makeID(), label: nil, visit: visit)
        work.visitRun = run
        return run
    }

    /// The current visit's own run, made on first use; `nil` once stopped.
    @inlinable
    mutating func visitRun() -> WorkRun? {
        withWork { work, core in core.visitRun(in: &work) }
    }

    /// Registers `whileIn` work; it starts at once when the current state matches. `nil` once stopped.
    @inlinable
    mutating func register(
        label: String, predicate: @escaping @Sendable (State) -> Bool,
        work body: @escaping @Sendable (StateMachine.Sender) async -> Void
    ) -> Effects? {
        var effects: Effects?
        _ = withWork { work, core in
            let registration = StateMachine.Registration(
                id: core.makeID(), label: label, predicate: predicate, work: body)
            // Room for two at the first: a machine usually registers its work in a pair (a visit's work and what
            // runs after it), and growing from one to two made a second array a machine.
            if work.registrations.isEmpty { work.registrations.reserveCapacity(2) }
            work.registrations.append(registration)
            if predicate(core.state) { core.start(registration, in: &work, into: &effects) }
        }
        return effects
    }

    /// The task-attached input for a run: attaches the task created for run `id`, or says to cancel it
    /// when the run has already ended.
    @inlinable
    mutating func attach(run id: Int, task: Task<Void, Never>) -> StateMachine.AttachAction {
        withWork { work, _ in
            guard let index = work.runs.firstIndex(where: { $0.run.id == id }) else { return .cancel(task) }
            precondition(work.runs[index].task == nil, "Internal inconsistency: run \(id) was attached twice")
            work.runs[index].task = task
            return .attached
        } ?? .cancel(task)
    }

    /// The task-attached input for a timer: attaches the task created for timer `id`, or says to cancel it
    /// when the timer was disarmed.
    @inlinable
    mutating func attach(timer id: Int, task: Task<Void, Never>) -> StateMachine.AttachAction {
        withWork { work, _ in
            guard work.timer?.id == id else { return .cancel(task) }
            precondition(work.timer?.task == nil, "Internal inconsistency: timer \(id) was attached twice")
            work.timer?.task = task
            return .attached
        } ?? .cancel(task)
    }

    /// Keeps `event` for the next `.to`; `false` when `postponeLimit` events already wait.
    @inlinable
    func postpone(_ event: Event, in work: inout Work) -> Bool {
        guard work.postponed.count < postponeLimit else { return false }
        work.postponed.append(event)
        return true
    }

    /// Keeps `event` for the next `.to` (a restored snapshot's postponed events); `false` when stopped or
    /// when `postponeLimit` events already wait.
    @inlinable
    mutating func postpone(_ event: Event) -> Bool {
        withWork { work, core in core.postpone(event, in: &work) } ?? false
    }

    /// Arms a timer that delivers `event` at `deadline` (a restored snapshot's pending timeout).
    @inlinable
    mutating func arm(event: Event, deadline: AnyClock.Instant) -> Effects? {
        var effects: Effects?
        _ = withWork { work, core in
            precondition(work.timer == nil, "Internal inconsistency: a timer is already armed")
            core.arm(event, at: deadline, in: &work, into: &effects)
        }
        return effects
    }

    /// The stop input: ends every run with `machineStopped`, disarms the timer, drops the postponed events
    /// (they could only be retried after a state change, and there will be none) and wakes every parked
    /// reader so that its stream finishes; the readers and the report queue stay.
    @inlinable
    mutating func stop() -> StateMachine.StopAction {
        var effects: Effects?
        var taken = StateMachine.Activity.stopped
        swap(&taken, &live.activity)
        switch consume taken {
        case .running(var work):
            end(&work.runs, cause: .machineStopped, state: state, into: &effects)
            work.visitRun?.end(.machineStopped)
            if let task = work.timer?.task { effects.edit { $0.cancel.append(task) } }
        case .idle:
            break
        case .stopped:
            return .none
        case .modifying:
            preconditionFailure("Internal inconsistency: stopped while modifying")
        }
        live.readers.wakeParked(finishing: true, into: &effects)
        return .stopped(settle(consume effects))
    }
}
