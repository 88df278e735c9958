// The core's event inputs: a send (by anyone or by a sender) and a state timeout firing. Each decides under
// the lock and returns its action (StateMachine+Actions.swift).

extension StateMachine.Core {
    @usableFromInline typealias Effects = StateMachine.Effects
    @usableFromInline typealias SendAction = StateMachine.SendAction

    /// The send input: refuses or applies `event` sent by anyone (`run` is `nil`) or by the sender of `run`,
    /// sets `outcome` and returns what to do after the lock is released. With `bind`, the action carries the
    /// run of the visit the event's own decision left the machine in (before any retried postponed event
    /// moves it on).
    ///
    /// The outcome goes out through a parameter, not beside the action in a returned pair, so that the action
    /// is made in the caller's place, once, and never moved between two pairs on its way out of the lock.
    @inlinable
    mutating func apply(
        _ event: Event, from run: WorkRun?, bind: Bool, transition: StateMachine.TransitionFunction,
        clock: AnyClock, outcome: inout Outcome
    ) -> SendAction {
        guard bind else { return apply(event, from: run, transition: transition, clock: clock, outcome: &outcome) }
        return applyWithWork(event, from: run, bind: true, transition: transition, clock: clock, outcome: &outcome)
    }

    /// The send input as `send` and a ``StateMachine/Sender`` take it, with no visit to bind.
    @inlinable @inline(__always)
    mutating func apply(
        _ event: Event, from run: WorkRun?, transition: StateMachine.TransitionFunction, clock: AnyClock,
        outcome: inout Outcome
    ) -> SendAction {
        guard run == nil, isQuiet else {
            return applyWithWork(event, from: run, bind: false, transition: transition, clock: clock, outcome: &outcome)
        }
        // Nothing but the state and the record can change, so neither the work nor the readers nor the
        // reports are touched unless the decision itself needs them.
        let before = state
        let recordVisit = visit
        // One switch on the decision, each case setting its own outcome, so the decision is read once. The
        // function reads the state where the machine keeps it, written before the lock was taken, rather than a
        // copy stored just before the call: a read of a store still in flight that is wider than the store
        // waits for it to reach the cache (make bench: 7% more events a second for the data-carrying machine).
        // For the same reason no case hands the decision itself on, only its parts: the optimiser passes the
        // switched value for a case it can rebuild (`.postpone`), and a use of the whole value loads it whole,
        // in wide loads of the narrow stores the transition function has just made (make bench: the
        // data-carrying machine from 0.44 to 0.57 of the floor).
        switch transition(state, event) {
        case .to(let next, let stateTimeout):
            outcome = .moved
            if let stateTimeout {
                return enterWithWork(
                    event, next, timeout: stateTimeout, transition: transition, clock: clock, outcome: &outcome)
            }
            state = next
            visit += 1
            changes &+= 1
        case .update(let next):
            outcome = .updated
            state = next
            changes &+= 1
        case .postpone:
            outcome = .postponed
            return postponeWithWork(event, transition: transition, clock: clock, outcome: &outcome)
        case .stay:
            outcome = .stayed
        case .ignore:
            outcome = .ignored
        case .invalid(let reason):
            outcome = .invalid(reason)
        }
        if let reportLevel, StateMachine.NoteSource.event.level(of: outcome) >= reportLevel {
            return recordNoted(event, visit: recordVisit, before: before, outcome: outcome)
        }
        remember(event, visit: recordVisit, before: before, outcome: outcome)
        return .none
    }

    /// Records a quiet machine's event whose record the reporter takes, and hands the report to whoever
    /// delivers: a quiet machine has no reader to wake (``isQuiet``), so nothing but the report can be left to
    /// do. Kept out of line, so that the quiet path stays small.
    @inlinable @inline(never)
    mutating func recordNoted(
        _ event: Event, visit recordVisit: Int, before: State, outcome: Outcome
    ) -> SendAction {
        let note = live.reports.recordNote(
            StateMachine.RecordNote(
                visit: recordVisit, before: before, event: event, outcome: outcome, after: state, source: .event,
                postponeLimit: postponeLimit))
        remember(event, visit: recordVisit, before: before, outcome: outcome)
        return live.reports.hand(note)
    }

    /// A quiet machine's `.to` into `next` that arms a state timeout, which needs more than the state and the
    /// record. Kept out of line, so that the quiet path stays small.
    @inlinable @inline(never)
    mutating func enterWithWork(
        _ event: Event, _ next: State, timeout: StateTimeout<Event>, transition: StateMachine.TransitionFunction,
        clock: AnyClock, outcome: inout Outcome
    ) -> SendAction {
        decide(
            event, .to(next, timeout: timeout), source: .event, bind: false, transition: transition, clock: clock,
            outcome: &outcome)
    }

    /// A quiet machine's postponement of `event`, which needs the work's queue. Kept out of line, so that the
    /// quiet path stays small.
    @inlinable @inline(never)
    mutating func postponeWithWork(
        _ event: Event, transition: StateMachine.TransitionFunction, clock: AnyClock, outcome: inout Outcome
    ) -> SendAction {
        decide(event, .postpone, source: .event, bind: false, transition: transition, clock: clock, outcome: &outcome)
    }

    /// The send input on a machine that is not quiet: stopped, with work, a parked reader, a sender's run to
    /// check or a visit to bind. Kept out of line, so that the quiet path stays small.
    @inlinable @inline(never)
    mutating func applyWithWork(
        _ event: Event, from run: WorkRun?, bind: Bool, transition: StateMachine.TransitionFunction,
        clock: AnyClock, outcome: inout Outcome
    ) -> SendAction {
        if isStopped {
            // A sender's event is stale (its run was ended by the stop, or earlier) and recorded; anything
            // else is not looked at.
            guard let run else {
                outcome = .stopped
                return .none
            }
            guard let cause = run.cause else {
                preconditionFailure("Internal inconsistency: run \(run.id) is live in a stopped machine")
            }
            return refuseStale(event, run: run, cause: cause, outcome: &outcome)
        }
        if let run, let cause = run.cause { return refuseStale(event, run: run, cause: cause, outcome: &outcome) }
        return decide(
            event, transition(state, event), source: .event, bind: bind, transition: transition, clock: clock,
            outcome: &outcome)
    }

    /// The timeout input: timer `id`, armed in `timerVisit`, fires with `event`; applied only while it is
    /// still the armed timer. A timer that lost the race with the end of its visit never delivers, and is
    /// not an event.
    @inlinable
    mutating func fire(
        timer id: Int, visit timerVisit: Int, event: Event, transition: StateMachine.TransitionFunction,
        clock: AnyClock
    ) -> StateMachine.TimeoutAction {
        let disarmed = withWork { work, _ in
            guard work.timer?.id == id else { return false }
            work.timer = nil
            return true
        }
        switch disarmed {
        case nil:
            return .stopped
        case false:
            if wants(.debug) { live.reports.note(.timeoutExpired(visit: timerVisit, event: event)) }
            return .expired(settle(nil))
        case true:
            var outcome = Outcome.stopped
            let action = decide(
                event, transition(state, event), source: .timer, bind: false, transition: transition, clock: clock,
                outcome: &outcome)
            return .fired(outcome, action)
        }
    }

    /// Applies the transition function's `decision` about `event` to the running machine, its work taken out
    /// meanwhile.
    @inlinable
    mutating func decide(
        _ event: Event, _ decision: Transition<State, Event>, source: StateMachine.NoteSource, bind: Bool,
        transition: StateMachine.TransitionFunction, clock: AnyClock, outcome: inout Outcome
    ) -> SendAction {
        var effects: Effects?
        let decided = withWork { work, core in
            let before = core.state
            // A `.to` is recorded in the visit it left.
            let recordVisit = core.visit
            let outcome = core.carryOut(decision, of: event, clock: clock, in: &work, into: &effects)
            core.record(event, visit: recordVisit, before: before, outcome: outcome, source: source, into: &effects)
            if bind { effects.edit { $0.bound = core.visitRun(in: &work) } }
            if case .moved = outcome, !work.postponed.isEmpty {
                core.retryPostponed(transition: transition, clock: clock, in: &work, into: &effects)
            }
            return outcome
        }
        guard let decided else { preconditionFailure("Internal inconsistency: an event was decided after stop") }
        outcome = decided
        return settle(consume effects)
    }

    /// Changes the running machine as `decision`, about `event`, says; returns the outcome.
    @inlinable
    mutating func carryOut(
        _ decision: Transition<State, Event>, of event: Event, clock: AnyClock, in work: inout Work,
        into effects: inout Effects?
    ) -> Outcome {
        let before = state
        var outcome = Outcome(decision)
        switch decision {
        case .to(let next, let stateTimeout):
            state = next
            visit += 1
            if stateTimeout != nil || !work.isIdle {
                enter(stateTimeout, leaving: before, clock: clock, in: &work, into: &effects)
            }
            changes &+= 1
            live.readers.publish(into: &effects)
        case .update(let next):
            state = next
            if !work.registrations.isEmpty { update(leaving: before, in: &work, into: &effects) }
            changes &+= 1
            live.readers.publish(into: &effects)
        case .postpone:
            if !postpone(event, in: &work) { outcome = .overflowed }
        case .stay, .ignore, .invalid:
            break
        }
        return outcome
    }

    /// Drops an event whose run has ended: recorded with outcome `.stale` and noted with the cause.
    @inlinable
    mutating func refuseStale(
        _ event: Event, run: WorkRun, cause: CancellationCause, outcome: inout Outcome
    ) -> SendAction {
        var effects: Effects?
        record(event, visit: visit, before: state, outcome: .stale, source: .stale(run), into: &effects)
        outcome = .stale
        return settle(consume effects)
    }

    /// Retries the postponed events after a `.to`, oldest first, each in the visit current when its
    /// turn comes (gen_statem: postponed events go to the front of the queue on a state change).
    ///
    /// An event postponed again waits for the next `.to`; when a retried event itself moves, the
    /// events postponed again so far are older than the ones not yet retried, so they go first.
    @inlinable
    mutating func retryPostponed(
        transition: StateMachine.TransitionFunction, clock: AnyClock, in work: inout Work,
        into effects: inout Effects?
    ) {
        var pending = work.postponed
        work.postponed = []
        var next = 0
        while next < pending.count {
            let event = pending[next]
            next += 1
            let before = state
            let recordVisit = visit
            // Never `.overflowed`: every event here came out of the queue that held at most that many.
            let outcome = carryOut(transition(before, event), of: event, clock: clock, in: &work, into: &effects)
            if case .moved = outcome, !work.postponed.isEmpty {
                pending = work.postponed + pending[next...]
                work.postponed = []
                next = 0
            }
            record(event, visit: recordVisit, before: before, outcome: outcome, source: .retry, into: &effects)
        }
    }

    /// Appends a record of `event` to the history, wakes the parked feed readers and the watching feeds of
    /// many machines, and notes the record
    /// when the reporter takes its level.
    @inlinable
    mutating func record(
        _ event: Event, visit recordVisit: Int, before: State, outcome: Outcome, source: StateMachine.NoteSource,
        into effects: inout Effects?
    ) {
        if !live.readers.parkedFeeds.isEmpty { live.readers.wakeParkedFeeds(into: &effects) }
        if !live.readers.watchers.isEmpty { live.readers.wakeWatchers(recording: sequence + 1, into: &effects) }
        if let reportLevel, source.level(of: outcome) >= reportLevel {
            let note = live.reports.recordNote(
                StateMachine.RecordNote(
                    visit: recordVisit, before: before, event: event, outcome: outcome, after: state, source: source,
                    postponeLimit: postponeLimit))
            live.reports.note(note)
        }
        remember(event, visit: recordVisit, before: before, outcome: outcome)
    }

    /// Numbers the record of `event` and keeps it in the history.
    @inlinable
    mutating func remember(_ event: Event, visit recordVisit: Int, before: State, outcome: Outcome) {
        sequence += 1
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
                StateMachine.Record(
                    sequence: sequence, visit: recordVisit, before: before, event: event, outcome: outcome,
                    after: state))
        }
    }

    /// Finishes a decision: hands the woken readers what they read, and the reports noted meanwhile to
    /// whoever delivers them; returns what is left to do.
    @inlinable
    mutating func settle(_ effects: consuming Effects?) -> SendAction {
        var effects = consume effects
        if case .some = effects { settle(some: &effects) }
        var report: StateMachine.Note?
        if reportLevel != nil { live.reports.settle(report: &report, effects: &effects) }
        return SendAction(consume effects, report: consume report)
    }

    /// Settles `effects` (never `nil` here) in place, and empties it to `nil` when nothing is left to do:
    /// changed through the optional, never copied out of it (a copy would retain every array in it).
    @inlinable
    mutating func settle(some effects: inout Effects?) {
        if effects!.wakeFinishes == false && !effects!.wake.isEmpty {
            live.readers.handOver(to: effects!.wake, changes: changes)
            effects!.wakeWith = state
        }
        if effects!.wakeFinishes == false && !effects!.wakeFeeds.isEmpty {
            for index in effects!.wakeFeeds.indices {
                let id = effects!.wakeFeeds[index].id
                guard case .took(let reading) = take(reader: id) else {
                    preconditionFailure("Internal inconsistency: feed reader \(id) woken with nothing to read")
                }
                effects!.wakeFeeds[index].batch = reading
            }
        }
        if effects!.isEmpty { effects = nil }
    }
}
