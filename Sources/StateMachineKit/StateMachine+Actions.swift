// What the core's inputs return: one closed action enum per input, performed by the machine once the lock
// is released (StateMachine.swift), and the effects some of them carry.
//
// The actions of events are noncopyable: each is moved from the decision into `perform` and taken apart there,
// its payload moved out, so that nothing copies or destroys it as a whole. (A copyable enum of several payloads
// is taken apart by copying the payload and destroying the enum through its type's value witnesses, found at
// run time: a report per event then cost a third of the traced machine's time.) They are also small, a word
// and a tag: every payload is a reference, so that the action of a quiet event comes out of the lock in
// registers instead of being copied through memory (the effects, with a dozen fields, are boxed in ``Pending``;
// a note is a reference, ``Note``).

extension StateMachine {
    /// What a `send` (by anyone or a ``Sender``) leaves to do once the lock is released.
    @usableFromInline
    enum SendAction: ~Copyable, Sendable {
        /// Nothing: no work changed, no reader waits, no report is this caller's to deliver.
        case none
        /// Deliver this one report, this caller being the deliverer; nothing else.
        case report(Note)
        /// Perform the effects (tasks, readers, reports, a wait for the deliverer), then deliver the report.
        case perform(Pending)
    }

    /// The effects of a decision that has some, and the single report it handed this caller beside them, if
    /// any: boxed, because they are rare (work, a parked reader, a backlog of reports) and large, and a send's
    /// action is returned on every event.
    ///
    /// The box is memory of its own, not an object: it is moved out of (``take()``) by the caller's code,
    /// specialised for its machine's types. A class's `deinit` is never specialised: boxed in one, the effects were
    /// copied out and the box then destroyed them through their type's value witnesses, their metadata looked up
    /// at run time (three times a file of a tree copy, 2% of its instructions).
    @usableFromInline @frozen
    struct Pending: ~Copyable, @unchecked Sendable {
        // The pointer is this box's alone: made by `init`, emptied and freed once, by `take()` or `deinit`.
        @usableFromInline let storage: UnsafeMutablePointer<(effects: Effects, report: Note?)>

        @inlinable
        init(effects: consuming Effects, report: consuming Note?) {
            storage = .allocate(capacity: 1)
            storage.initialize(to: (effects, report))
        }

        /// The effects and the report, moved out; the box is freed.
        @inlinable
        consuming func take() -> (effects: Effects, report: Note?) {
            let taken = storage.move()
            storage.deallocate()
            discard self
            return taken
        }

        @usableFromInline
        deinit {
            storage.deinitialize(count: 1)
            storage.deallocate()
        }
    }

    /// What a state timeout firing leaves to do once the lock is released.
    @usableFromInline
    enum TimeoutAction: ~Copyable, Sendable {
        /// The timer was the armed one: its event was applied like a send.
        case fired(Outcome, SendAction)
        /// The timer lost the race with the end of its visit: nothing was applied; a debug report may
        /// still be this caller's to deliver.
        case expired(SendAction)
        /// The machine was stopped (the timer's task is being cancelled): nothing.
        case stopped
    }

    /// What ``StateMachine/stop()`` leaves to do once the lock is released.
    @usableFromInline
    enum StopAction: ~Copyable, Sendable {
        /// The machine was already stopped.
        case none
        /// The machine stopped now: cancel the work and the timer, end the parked readers' streams and
        /// deliver the reports, as a send's action does.
        case stopped(SendAction)
    }

    /// What a reader's cancellation, or the end of its stream, leaves to do once the lock is released.
    @usableFromInline
    enum ReaderExitAction: Sendable {
        /// The reader was not parked (or was gone): nothing.
        case none
        /// The reader was parked: end its stream.
        case finish(ParkedReader)
    }

    /// What attaching a task created outside the lock to its run or timer leaves to do.
    @usableFromInline
    enum AttachAction: Sendable, Equatable {
        /// The run or timer is still there and holds the task now.
        case attached
        /// The run or timer ended before its task was attached: cancel the task at once.
        case cancel(Task<Void, Never>)
    }

    /// The rarer things a decision leaves to do after the lock, in this order: cancel, start, arm, wake,
    /// report, wait.
    @usableFromInline
    struct Effects: Sendable {
        /// Tasks of ended runs and disarmed timers.
        @usableFromInline var cancel: [Task<Void, Never>] = []
        /// Runs whose tasks to create and attach.
        @usableFromInline var start: [ActiveRun] = []
        /// Timers whose tasks to create and attach.
        @usableFromInline var arm: [ArmedTimer] = []
        /// Parked `states()` readers to resume with ``wakeWith``, by reader id.
        @usableFromInline var wake: [Int: ParkedReader] = [:]
        /// Parked feed readers to resume, each with the batch it is handed once the decision is settled
        /// (``Core/settle(some:)``); a `nil` batch ends the reader's stream.
        @usableFromInline var wakeFeeds: [(id: Int, reader: ParkedReader, batch: Reading?)] = []
        /// Feeds of many machines (``StateMachine/records(of:after:)``) to tell that this machine recorded.
        @usableFromInline var wakeWatchers: [RecordWatcher] = []
        /// Whether the woken readers' streams end (stop) rather than take the state.
        @usableFromInline var wakeFinishes = false
        /// The state handed to the woken readers (set when the decision is settled); `nil` ends them.
        @usableFromInline var wakeWith: State?
        /// The reports this caller must deliver, in order, before it asks for more
        /// (``ReportQueue/next(first:rest:allowance:)``), when it was handed several. A single report is
        /// handed beside the effects instead, so that these stay small.
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
}

extension StateMachine.SendAction {
    /// The action for what a decision left: nothing, a lone report, or effects.
    @inlinable
    init(_ effects: consuming StateMachine.Effects?, report: consuming StateMachine.Note?) {
        if let effects = consume effects {
            self = .perform(StateMachine.Pending(effects: effects, report: report))
        } else if let report = consume report {
            self = .report(report)
        } else {
            self = .none
        }
    }
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
