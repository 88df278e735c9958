// The engine's decisions: everything the machine's lock protects (``StateMachine/Core``), by phase.
//
// Nothing in the core locks, starts a task, cancels one or calls a reporter. Every input is a `mutating`
// method that decides, changes the core and returns its own action enum, saying what must happen once the
// lock is released: a send or a timeout (StateMachine+Apply.swift), stop, a task attached
// (StateMachine+Work.swift), a reader's arrival or cancellation (StateMachine+States.swift). The machine
// (StateMachine.swift) owns the lock and performs the actions after unlocking.

extension StateMachine {
    /// Everything of a machine besides its position and its record: its readers, the reports it noted and
    /// what it is doing. Readers and reports outlive the work: a stopped machine still hands its readers
    /// the end of their streams and its sinks the reports it noted before the stop.
    @usableFromInline
    struct Live: Sendable {
        @usableFromInline var readers = Readers()
        @usableFromInline var reports: ReportQueue
        @usableFromInline var activity = Activity.idle

        @inlinable
        init(reports: ReportQueue) { self.reports = reports }
    }

    /// The machine's phase, each case carrying exactly the data that exists in it.
    @usableFromInline
    enum Activity: Sendable {
        /// Running with nothing but its state: no `whileIn` registration, run, timer, visit run or postponed
        /// event. An event changes only the state and the record (``Core/isQuiet``), without touching
        /// ``Work``.
        case idle
        /// Running with work (never empty: emptied work goes back to ``idle``).
        case running(Work)
        /// ``StateMachine/stop()`` was called: the state is final, readers finish, work is over.
        case stopped
        /// Only while a method of the core holds the work outside the enum, so that changing it never copies
        /// its arrays. Seen anywhere else, it is an internal inconsistency.
        case modifying
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

    /// Everything the lock protects: where the machine is and what it recorded, which every phase has, and
    /// the live data with the phase. Its methods decide; the machine performs the actions they return.
    @usableFromInline
    struct Core: Sendable {
        @usableFromInline var state: State
        @usableFromInline var visit: Int
        @usableFromInline var sequence = 0
        /// Counts `.to` and `.update` decisions, as ``visit`` counts `.to`s: what `states()` readers compare
        /// to know whether they are behind.
        @usableFromInline var changes = 0
        @usableFromInline var history: HistoryRing<Record>
        /// Stored in the core, not behind an enum, so that reading or changing a reader or a report in place
        /// moves nothing else.
        @usableFromInline var live: Live
        /// The lowest level of report anyone takes (`nil`: no reporter), so nothing is noted for nobody.
        @usableFromInline let reportLevel: Report.Level?
        @usableFromInline let postponeLimit: Int
        /// The last id handed to a registration, a run, a timer or a reader: ids are unique per machine.
        @usableFromInline var lastID = 0

        @inlinable
        init(
            state: State, visit: Int, historyLimit: Int, postponeLimit: Int, reportLevel: Report.Level?,
            delivery: ReportDelivery, texts: Spare<StateMachine.RecordText>
        ) {
            self.state = state
            self.visit = visit
            self.history = HistoryRing(capacity: historyLimit)
            self.live = Live(reports: ReportQueue(delivery: delivery, texts: texts))
            self.postponeLimit = postponeLimit
            self.reportLevel = reportLevel
        }

        @inlinable
        mutating func makeID() -> Int {
            lastID += 1
            return lastID
        }

        @inlinable
        var isStopped: Bool {
            switch live.activity {
            case .idle, .running: false
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

        /// Whether an event can touch nothing but the state and the record: running without work, no reader
        /// parked. Read in place: a tag and two counts.
        @inlinable
        var isQuiet: Bool {
            guard case .idle = live.activity else { return false }
            return live.readers.noneParked
        }

        /// Runs `body` on the running machine's work in place (taken out of the phase, never copied), starting
        /// from empty work when idle; emptied work leaves the machine idle. `nil` once stopped.
        @inlinable
        mutating func withWork<Result>(_ body: (inout Work, inout Core) -> Result) -> Result? {
            var taken = Activity.modifying
            swap(&taken, &live.activity)
            var work: Work
            switch consume taken {
            case .idle:
                work = Work()
            case .running(let running):
                work = running
            case .stopped:
                live.activity = .stopped
                return nil
            case .modifying:
                preconditionFailure("Internal inconsistency: the work is already being modified")
            }
            defer { live.activity = work.isEmpty ? .idle : .running(work) }
            return body(&work, &self)
        }

        /// The readers, read only (tests and diagnostics).
        @inlinable var readers: Readers { live.readers }

        /// The report queue, read only (tests and diagnostics).
        @inlinable var reports: ReportQueue { live.reports }

        /// The running machine's work; empty when idle or stopped (snapshots and diagnostics).
        @inlinable
        var work: Work {
            switch live.activity {
            case .running(let work): work
            case .idle, .stopped: Work()
            case .modifying: preconditionFailure("Internal inconsistency: the core was read while modifying")
            }
        }
    }
}
