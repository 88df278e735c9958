import MachineDrivers
import SeedModels
import StateMachineKit
import TerminalUI

/// One transfer on the Transfers screen: its name, the newest snapshot of its machine and of its driver,
/// what its records counted, and what the runtime measured (samples on the machine's clock). The reducer
/// never changes these on its own; only their sources' snapshots do.
///
/// A row holds its name, model and file size inline and everything else it learned apart (``TransferActivity``),
/// only once there is something: a copy's row never started is a name, a model and a size, however many rows
/// there are.
package struct TransferRow: Hashable, Sendable {
    /// The file the transfer produces (also its row's label).
    package var name: String
    /// The newest state its `TransferMachine` published.
    package var model: TransferModel
    /// The file's size in bytes, when the driver (or the list, before) knows it: ``driverStatus``'s, kept inline
    /// so that knowing it boxes nothing.
    private var size: Int64? {
        get { knownSize == Self.unknownSize ? nil : knownSize }
        set { knownSize = newValue ?? Self.unknownSize }
    }
    /// ``size``, ``unknownSize`` standing for none: without an optional's tag byte, a row is 80 bytes in the rows'
    /// array instead of 88.
    private var knownSize: Int64 = unknownSize
    /// The size no file has.
    private static let unknownSize = Int64.min
    /// What the row learned beyond its state and size, boxed; nil while it is all as a new row's.
    private var learned: Learned?

    /// ``TransferActivity`` on the heap, so a row that learned nothing holds one empty reference; in a box half
    /// the size once nothing is under way (``QuietActivity``), as in every completed row of a copy dashboard.
    private indirect enum Learned: Hashable, Sendable {
        case activity(TransferActivity)
        case quiet(QuietActivity)
    }

    /// A row for `name` at `model`.
    package init(
        name: String, model: TransferModel = .initial, driverStatus: TransferDriverStatus = TransferDriverStatus(),
        tally: RecordTally = RecordTally()
    ) {
        self.name = name
        self.model = model
        self.driverStatus = driverStatus
        self.tally = tally
    }

    /// Everything the row learned beyond its state; set back as nil when it is a new row's, so two rows that
    /// learned the same are equal however they got there.
    private var activity: TransferActivity {
        get {
            switch learned {
            case nil: TransferActivity()
            case .activity(let activity): activity
            case .quiet(let quiet): quiet.activity
            }
        }
        set {
            if newValue == TransferActivity() {
                learned = nil
            } else if let quiet = QuietActivity(newValue) {
                learned = .quiet(quiet)
            } else {
                learned = .activity(newValue)
            }
        }
    }

    /// The bytes of what the row keeps in its box beyond the box's header; 0 when it learned nothing (a test's view
    /// of what a row costs).
    var boxedBytes: Int {
        switch learned {
        case nil: 0
        case .activity: MemoryLayout<TransferActivity>.size
        case .quiet: MemoryLayout<QuietActivity>.size
        }
    }

    /// The newest status its driver published (its size among it).
    package var driverStatus: TransferDriverStatus {
        get {
            var status = activity.driverStatus
            status.totalBytes = size
            return status
        }
        set { (size, activity.driverStatus) = Self.split(newValue) }
    }

    /// `status` as the row keeps it: the size inline, the rest in the activity.
    private static func split(_ status: TransferDriverStatus) -> (size: Int64?, rest: TransferDriverStatus) {
        var rest = status
        rest.totalBytes = nil
        return (status.totalBytes, rest)
    }
    /// What its machine's records counted: the stale late callbacks among them.
    package var tally: RecordTally {
        get { activity.tally }
        set { activity.tally = newValue }
    }
    /// The newest sample the runtime took with a state; nil before the first.
    package var sample: TransferSample? { activity.sample }
    /// When the current visit was first seen, on the machine's clock.
    package var enteredAt: Duration? { activity.enteredAt }
    /// The running request's recent progress, for its rate.
    package var progress: ProgressWindow { activity.progress }

    /// The phase as a person reads it, the outside text in it (a path, a message) escaped for the terminal.
    package var presentation: StatePresentation { model.presentation.escaped }

    /// The phase in canonical text (shown with `v`, in the detail pane, and yanked).
    package var stateText: String { String(describing: model.phase) }

    /// Takes in `model` published when the runtime measured `sample`: a new visit restarts the time in state,
    /// a running request's percent goes into the rate window.
    package mutating func take(_ model: TransferModel, _ sample: TransferSample) {
        var activity = activity
        activity.take(model.phase, sample)
        self.activity = activity
        self.model = model
    }

    /// Takes in a batch of the machine's feed: counts the new records.
    package mutating func take(records: StateMachine<TransferModel, TransferEvent>.RecordBatch) {
        var activity = activity
        activity.take(records: records)
        self.activity = activity
    }

    /// Takes in the change feed's news of this transfer: its records, the state after them as measured with
    /// `change.sample`, and its driver's status.
    package mutating func take(_ change: TransferChange) {
        var activity = activity
        activity.take(records: change.records)
        (size, activity.driverStatus) = Self.split(change.status)
        activity.take(change.records.state.phase, change.sample)
        self.activity = activity
        model = change.records.state
    }

    /// The file's size in bytes, when the driver knows it.
    package var totalBytes: Int64? { size }

    /// The bytes done so far: the size times the bar's fraction; nil without a size.
    package var bytesDone: Int64? {
        totalBytes.map { Int64(Double($0) * TransfersFeature.fraction(model)) }
    }

    /// Bytes per second while running, measured over the recent progress; nil otherwise.
    package var rate: Double? {
        progress.rate(totalBytes: totalBytes)
    }

    /// Seconds left at the measured rate; nil without a rate.
    package var secondsLeft: Double? {
        guard let rate, rate > 0, let totalBytes, let bytesDone else { return nil }
        return Double(max(0, totalBytes - bytesDone)) / rate
    }
}

/// A transfer's figures as the Transfers columns show them, right-aligned cells; `–` where a figure is not
/// known.
package struct TransferFigureText: Hashable, Sendable {
    /// The file's size.
    package var size: Line
    /// The bytes done.
    package var done: Line
    /// The measured rate (while running).
    package var rate: Line
    /// The time left at that rate.
    package var eta: Line

    /// The figures of `row` now.
    init(_ row: TransferRow) {
        size = TransfersFeature.figure(row.totalBytes.map(TransferFigures.size))
        done = TransfersFeature.figure(row.bytesDone.map(TransferFigures.size))
        rate = TransfersFeature.figure(row.rate.map(TransferFigures.rate))
        eta = TransfersFeature.figure(row.secondsLeft.map(TransferFigures.duration(seconds:)))
    }
}

/// What a ``TransferRow`` learned beyond its state and size: the rest of its driver's status, its records' tally
/// and the samples the runtime took. Its newest records are the open detail pane's alone (``TransferDetail``):
/// kept in every row, they cost a row of a 10,000-file copy dashboard about 1 KB.
package struct TransferActivity: Hashable, Sendable {
    /// The newest status its driver published, but for the size (the row's own).
    var driverStatus = TransferDriverStatus()
    /// What its machine's records counted.
    var tally = RecordTally()
    /// The newest sample the runtime took with a state; nil before the first.
    var sample: TransferSample?
    /// When the current visit was first seen, on the machine's clock.
    var enteredAt: Duration?
    /// The running request's recent progress, for its rate.
    var progress = ProgressWindow()

    /// Takes in `phase` seen when the runtime measured `sample`: a new visit restarts the time in state.
    mutating func take(_ phase: TransferState, _ sample: TransferSample) {
        if self.sample?.visit != sample.visit { enteredAt = sample.at }
        progress.add(phase, at: sample.at)
        self.sample = sample
    }

    /// Counts the new records of `records`.
    mutating func take(records: StateMachine<TransferModel, TransferEvent>.RecordBatch) {
        tally.add(records)
    }
}

/// A ``TransferActivity`` with nothing under way, in 38 bytes rather than 160: its progress window is a new
/// row's, it was sampled and no timeout was armed at the sample, and its driver's status holds no text (but for
/// the size, kept in the row, the status is its two flags: it copies, if at all, from 0%); its times are whole
/// nanoseconds and its counts fit in 32 bits. Every completed row of a copy dashboard keeps one: a box the
/// allocator holds in 64 bytes rather than 192. The times come first, so the counts and flags pack after them.
private struct QuietActivity: Hashable, Sendable {
    /// When the newest sample was taken, on the machine's clock, in nanoseconds.
    var sampledAt: Int64
    /// When the visit was first seen, in nanoseconds.
    var enteredAt: Int64
    /// What its machine's records counted: ``RecordTally``'s four counts.
    var lastSequence: UInt32
    var stale: UInt32
    var invalid: UInt32
    var missed: UInt32
    /// The visit of the newest sample.
    var visit: UInt32
    /// The driver status's flags: whether it copies (from 0%), and whether its next outcome fails.
    var isCopying: Bool
    var failsNextOutcome: Bool

    /// `activity` kept compactly; nil when it is under way, its status holds text or a copy from past 0%, a
    /// timeout was armed, it was never sampled, a time is not whole nanoseconds or a count does not fit (the whole
    /// is boxed then).
    init?(_ activity: TransferActivity) {
        let status = activity.driverStatus
        let tally = activity.tally
        guard status.alreadyThere == nil, status.totalBytes == nil, status.copyingFromPercent ?? 0 == 0,
            activity.progress == ProgressWindow(),
            let sample = activity.sample, sample.timeout == nil, let enteredAt = activity.enteredAt,
            let sampledAt = Self.nanoseconds(sample.at), let entered = Self.nanoseconds(enteredAt),
            let lastSequence = UInt32(exactly: tally.lastSequence), let stale = UInt32(exactly: tally.stale),
            let invalid = UInt32(exactly: tally.invalid), let missed = UInt32(exactly: tally.missed),
            let visit = UInt32(exactly: sample.visit)
        else { return nil }
        self.sampledAt = sampledAt
        self.enteredAt = entered
        self.lastSequence = lastSequence
        self.stale = stale
        self.invalid = invalid
        self.missed = missed
        self.visit = visit
        isCopying = status.isCopying
        failsNextOutcome = status.failsNextOutcome
    }

    /// The activity it keeps.
    var activity: TransferActivity {
        TransferActivity(
            driverStatus: TransferDriverStatus(
                failsNextOutcome: failsNextOutcome, copyingFromPercent: isCopying ? 0 : nil),
            tally: RecordTally(
                lastSequence: Int(lastSequence), stale: Int(stale), invalid: Int(invalid), missed: Int(missed)),
            sample: TransferSample(at: .nanoseconds(sampledAt), visit: Int(visit)), enteredAt: .nanoseconds(enteredAt))
    }

    /// `duration` in whole nanoseconds; nil when it has a finer part or does not fit.
    private static func nanoseconds(_ duration: Duration) -> Int64? {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow, attoseconds % 1_000_000_000 == 0 else { return nil }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return sumOverflow ? nil : sum
    }
}
