import Dispatch
import FileTransfer
import SeedModels
import StateMachineKit
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The effect adapter that makes a ``TransferMachine`` copy a real file.
///
/// The machine is the authority; this adapter only performs what its states ask for:
/// - entering `running(request: n, …)` starts (or continues) the ``CopyJob`` as the visit's `whileIn`
///   work. Progress from bytes written and the outcome go through that visit's `Sender`, so a chunk
///   callback that arrives after the visit ended (paused, cancelled, stopped) is stale and never moves
///   the machine.
/// - leaving `running` (pause, cancel, stop) cancels the work: the job stops at the next chunk
///   boundary, syncs the partial, journals the checkpoint and reads or writes nothing more. Resume is
///   a new running visit; the same job continues at the offset it reached with the running SHA-256
///   it kept in memory, reading nothing it already copied (unless the source or the partial changed
///   meanwhile: then it verifies the kept prefix from disk first).
/// - entering `idle` with a job (a cancel) removes the partial and journals the cancellation.
/// - `succeeded(request:file:)` is sent only after the commit (fsync, size and SHA-256 check, atomic
///   rename, directory fsync; for a small file, a `syncfs` shared with the copies committing beside it:
///   ``CopyJournal/commitTogether(_:then:)``), never at progress 100; failures carry the OS reason in
///   `failed(request:message:)`.
///
/// Operations on the job run one at a time through a ``SerialGate``, so a new visit's run waits for
/// the previous one to finish its last chunk; and a run starts only once it holds one of the shared
/// ``CopySlots``, so thousands of transfers started at once keep a bounded number of files open.
///
/// As a ``TransferDriver`` it is a row of the dashboard's Transfers screen: its status counts the stale
/// events the machine dropped, and `f` (only with `statetui copy --simulate-faults`) arms a simulated fault:
/// the next chunk written fails with EIO, so the transfer fails with that reason marked as simulated
/// (``simulatedFaultNote``), keeps its partial, and `r` (retry) continues from it.
package final class CopyTransfer: TransferDriver {
    /// The machine this adapter drives.
    package let machine: TransferMachine
    /// The file to copy; `id` is the machine's label.
    package let request: CopyRequest
    /// The destination directory's journal, shared by every transfer into it.
    package let journal: CopyJournal?
    /// Chunk size, checkpoint interval and file system of the jobs, shared with the session's other transfers.
    private let sharedOptions: SharedCopyOptions

    private let gate = SerialGate()
    /// Which running visit's job run is active and whether a pause asked it to stop.
    private let suspension = Locked(CopySuspension())
    /// The slots this transfer's runs take, shared with the other copies (``CopySlots/perProcess``).
    private let slots: CopySlots
    /// The job of the current transfer; replaced after a cancel, since a cancelled job is finished.
    private let job = Locked<CopyJob?>(nil)
    private let driverStatus: DriverStatus
    /// Where a reader of the machine's records starts: 0, or for a machine restored from a settled row the
    /// record before the one it was restored with (``SettledTransfer/recordsStart``).
    package let recordsStart: Int

    /// The label of a running visit's work, which copies (``StateMachine/whileIn(where:label:_:)``).
    private static let copyWorkLabel = "copy"
    /// The label of the work of the idle visit after a cancel, which removes the partial.
    private static let discardWorkLabel = "discard"

    /// What the failure message of a fault armed by `f` ends with, so it never passes for a real one.
    package static let simulatedFaultNote = " (simulated fault: --simulate-faults)"

    /// A transfer (and its machine, labelled with `displayName`, by default the file name) that copies
    /// `source` into `destinationDirectory`. Registers the machine's `whileIn` work at once. A file of a
    /// tree copy is displayed by its path relative to the destination (`photos/2024/a.jpg`). A run waits for
    /// one of `slots` before it opens anything.
    package convenience init(
        source: String, destinationDirectory: String, overwrite: Bool = false, journal: CopyJournal?,
        options: CopyOptions = CopyOptions(), displayName: String? = nil, slots: CopySlots = .perProcess
    ) {
        self.init(
            source: source, destinationDirectory: destinationDirectory, overwrite: overwrite, journal: journal,
            sharedOptions: SharedCopyOptions(options), displayName: displayName, slots: slots)
    }

    /// A transfer (``init(source:destinationDirectory:overwrite:journal:options:displayName:slots:)``) whose
    /// options are shared with other transfers: a session of a million files holds them once.
    ///
    /// A row made again after its list let its completed transfer go (``CopyFiles``) passes `settled`: the
    /// machine is restored where that one ended, its records numbered on (``recordsStart``).
    package init(
        source: String, destinationDirectory: String, overwrite: Bool = false, journal: CopyJournal?,
        sharedOptions: SharedCopyOptions, displayName: String? = nil, slots: CopySlots = .perProcess,
        expectedSize: Int64? = nil, settled: SettledTransfer? = nil
    ) {
        self.slots = slots
        let name = CopyRequest.name(of: source)
        let shown = displayName ?? name
        let status = DriverStatus(TransferDriverStatus(totalBytes: expectedSize))
        self.driverStatus = status
        let label = DisplayText.escaped(shown)
        let machine =
            settled.map { TransferMachine(restoring: $0.snapshot, label: label) } ?? TransferMachine(label: label)
        self.machine = machine
        recordsStart = settled?.recordsStart ?? 0
        self.request = CopyRequest(
            id: shown, source: source, destinationDirectory: destinationDirectory, name: name, overwrite: overwrite)
        self.journal = journal
        self.sharedOptions = sharedOptions
        let engine = machine.engine
        // The work's labels are the same for every transfer: the machine's own label names the file (escaped), and a
        // label with the name in it cost two strings a file.
        engine.whileIn(where: { if case .running = $0.phase { true } else { false } }, label: Self.copyWorkLabel) {
            [weak self] sender in
            await self?.copy(for: sender)
        }
        // Idle after a request (a cancel), never the idle a transfer starts in: nothing is there to discard, and
        // a tree of a million files starts without a task each.
        engine.whileIn(where: { $0.phase == .idle && $0.lastRequest > 0 }, label: Self.discardWorkLabel) {
            [weak self] sender in
            await self?.discard(for: sender)
        }
    }

    /// The options of this transfer's job: the shared ones, with a write that fails once when `f` armed a fault
    /// (where faults can be armed: a headless copy's files, and a copy dashboard's without `--simulate-faults`,
    /// copy with the shared options as they are).
    private func jobOptions() -> CopyOptions {
        guard sharedOptions.faultsCanBeArmed else { return sharedOptions.value }
        var options = sharedOptions.value
        let (write, writeGathered) = (options.fileSystem.write, options.fileSystem.writeGathered)
        let status = driverStatus
        options.fileSystem.calls.write = { descriptor, bytes, offset throws(Errno) in
            if status.takeArmedFailure() { throw Errno.ioError }
            return try write(descriptor, bytes, offset)
        }
        // Set after `write`, whose replacement drops the gathered writes: they fail the same way.
        if let writeGathered {
            options.fileSystem.calls.writeGathered = { descriptor, pieces, offset throws(Errno) in
                if status.takeArmedFailure() { throw Errno.ioError }
                return try writeGathered(descriptor, pieces, offset)
            }
        }
        return options
    }

    /// The file as the dashboard's row and the progress lines show it (its name, or its path in a tree
    /// copy), control characters escaped (``DisplayText/escaped(_:limit:)``); `request.id` is the text itself.
    package var name: String { DisplayText.escaped(request.id) }

    /// Stops the copy and then the machine, and waits until no more I/O happens: for SIGINT/SIGTERM and the end of
    /// a run. A run under way is stopped first as a pause stops it (``askToStop()``), and its outcome reaches the
    /// machine before the machine stops: `paused` at the chunk boundary it stopped at (its partial synced and kept,
    /// its checkpoint journaled), or `completed` when it was already past its last chunk and committed. So whoever
    /// counts the machines' states afterwards (the headless summary, the exit status) counts every file that
    /// reached its place. Before, the machine was stopped first, and the completion of a file committed meanwhile
    /// never reached it.
    package func finish() async {
        askToStop()
        await gate.run {}
        machine.engine.stop()
        await gate.run {}
    }

    /// The first half of ``finish()``, at once: asks the run under way, if any, to stop at its next chunk boundary
    /// as a pause does (its outcome then reaches the machine), and stops the machine now when no run is under way.
    /// A caller stopping many transfers asks them all first, so every run stops at its next boundary rather than
    /// one after another.
    package func askToStop() {
        if suspendRun() != .runStopping { machine.engine.stop() }
    }

    /// ``finish()`` for synchronous callers (the dashboard's exit): blocks the calling thread, which
    /// must not be one of the cooperative pool's, until the copy has stopped.
    package func stop() {
        precondition(DetachedThread.mayBlock, "CopyTransfer.stop() blocks its thread: from a task, await finish()")
        // Asked here, before the thread hop, so the run stops at the boundary this call found it before.
        askToStop()
        let done = DispatchSemaphore(value: 0)
        Task {
            await finish()
            done.signal()
        }
        done.wait()
    }

    /// The status now: stale events counted and whether the next write is armed to fail.
    package var status: TransferDriverStatus { driverStatus.value }

    /// Arms a simulated fault: the next chunk written to the partial fails with EIO (Input/output error), and
    /// the failure says it was simulated.
    package func failNextOutcome() {
        driverStatus.change { $0.failsNextOutcome = true }
    }

    /// Sends a user's `event` the way seed 001's owner does for a pause: suspend first, and update the
    /// state only if that worked. A pause of a running copy asks its job to stop at the next chunk
    /// boundary; the machine moves to `paused` through the run's sender once the job stopped there. A job
    /// already past its last chunk commits instead, and the machine ends `completed` (never a committed
    /// file shown paused and then journaled "cancelled"). Whether the pause applies is the transition
    /// function's decision; every other event goes to the machine as it is.
    package func perform(_ event: TransferEvent) {
        switch event == .pause ? suspendRun() : .notApplicable {
        case .runStopping:
            break
        case .noRun:
            // No run of this visit began and none will: nothing was copied that could have committed.
            machine.send(.pause)
        case .notApplicable:
            machine.send(event)  // for a pause, the machine records why nothing happens
        }
    }

    /// What ``suspendRun()`` did.
    private enum Suspension {
        /// The visit's run was asked to stop at its next chunk boundary; once it stopped there, its work sends
        /// `pause` (or it was past its last chunk and commits).
        case runStopping
        /// No run of the visit began, and none will.
        case noRun
        /// The transition function does not pause the machine in its state: nothing was done.
        case notApplicable
    }

    /// The first half of a pause, seed 001's "suspend first": when the transition function pauses the machine in
    /// its state, marks its visit paused, so no run of the visit begins from now on, and asks the run under way,
    /// if any, to stop at its next chunk boundary.
    private func suspendRun() -> Suspension {
        let snapshot = machine.engine.snapshot()
        guard TransferModel.transition(snapshot.state, .pause).changesState else { return .notApplicable }
        switch suspension.withLock({ $0.pause(visit: snapshot.visit) }) {
        case .stopRun(let run):
            run.stop()
            return .runStopping
        case .pauseNow:
            return .noRun
        }
    }

    /// What the transfer holds beyond its machine and its request: a ``CopyJob`` (made by a run, kept while the
    /// copy can continue from it) and a run's stopper (kept until the run's outcome reached the machine). A
    /// completed transfer holds neither, so a dashboard of many completed rows keeps their machines and little else.
    package var holdings: (job: Bool, stopper: Bool) {
        (job.withLock { $0 != nil }, suspension.withLock { $0.holdsRun })
    }

    /// What the row keeps once its list lets this transfer go: its machine completed, with its newest record
    /// still `sequence` and no job; nil otherwise.
    package func settled(at sequence: Int) -> SettledTransfer? {
        let snapshot = machine.engine.snapshot()
        guard snapshot.sequence == sequence, job.withLock({ $0 == nil }) else { return nil }
        return SettledTransfer(snapshot, machineRecordsStart: recordsStart)
    }

    /// Waits until no operation on the job is running or queued.
    package func settle() async {
        await gate.run {}
    }

    // MARK: - The visit's work

    /// The work of one running visit: once it holds a slot, runs the job until it commits, fails, the visit
    /// ends or a pause stops it (``perform(_:)``). A visit that ends while waiting for a slot did nothing.
    private func copy(for sender: StateMachine<TransferModel, TransferEvent>.Sender) async {
        guard await slots.acquire() else { return }
        let run = JobRun(slot: slots, sender: sender)
        defer { run.releaseSlot() }
        await gate.run {
            // The state read here belongs to the sender's visit only if the visit is still current
            // afterwards (visits only grow); otherwise this work is already obsolete.
            guard case .running(let request, let percent) = machine.engine.state.phase, sender.isCurrent,
                !Task.isCancelled
            else { return }
            let job = currentJob()
            run.begin(job, request: request, percent: percent)
            // A pause that came first already moved the machine (the visit is over): then no run starts.
            guard suspension.withLock({ $0.runStarted(visit: sender.visit, run: run) }) else { return }
            let outcome = await self.run(job, as: run)
            report(outcome, of: job, request: request, to: sender)
            // The outcome has reached the machine: a pause from now on is the transition function's to judge.
            suspension.withLock { $0.runEnded(visit: sender.visit) }
        }
    }

    /// The job of the current transfer, made now when there is none (the first run, or the first after a
    /// cancel or a completion).
    private func currentJob() -> CopyJob {
        job.withLock { job in
            if let job { return job }
            let made = CopyJob(request: request, journal: journal, options: jobOptions())
            job = made
            return made
        }
    }

    /// Runs `job` in this task (the visit's work), stopped by `run` for a pause while the visit goes on, and by
    /// the task's cancellation when the visit ends (a stop, a cancel): the job stops at the chunk boundary after
    /// the one in flight. Its progress goes through `run`, which gives the slot back as soon as the run holds no
    /// file open.
    ///
    /// No task of its own: a task for each run cost two more thread hops a file, and a pause reaches the run
    /// through the job itself (``JobRun/stop()``).
    private func run(_ job: CopyJob, as run: JobRun) async -> Result<CopyOutcome, TransferError> {
        let driverStatus = self.driverStatus
        do throws(TransferError) {
            return .success(
                try await job.run(
                    sizeHint: driverStatus.value.totalBytes,
                    progress: { progress in
                        // The status first, then the percent: a size or a start of copying the row has not seen is
                        // sent as progress even at the same percent, so the machine records it and whoever reads the
                        // records reads the status with them.
                        run.forward(progress, always: driverStatus.note(progress))
                    },
                    // A small file waiting for its commit batch holds no descriptor: its slot lets the next copy
                    // open its files, and the batches grow.
                    filesClosed: run.releaseSlot, stopAsked: run.isStopped))
        } catch {
            return .failure(error)
        }
    }

    /// Tells the machine, through the visit's `sender`, what the run of `job` for `request` came to.
    private func report(
        _ outcome: Result<CopyOutcome, TransferError>, of job: CopyJob, request: Int,
        to sender: StateMachine<TransferModel, TransferEvent>.Sender
    ) {
        switch outcome {
        case .success(.completed(let file)), .success(.alreadyComplete(let file)):
            // Also when a pause was asked: the job was past its last chunk, so the file is committed. The job is
            // done with: a completed row keeps its machine, not the job's own lifecycle machine and options (a
            // later run would make a job anew, as a first one does).
            //
            // The outcome alone: no progress of 100% first, which says nothing the completion does not (progress is
            // not completion; a copied file's last chunk reported its percent already). An empty file, or one a
            // rerun finds already there (its job reports no progress), so records its start and its end, and no
            // event between them; the status holds the file's size before the completion is sent, so whoever
            // reads the completion's record reads the size with it.
            self.job.withLock { if $0 === job { $0 = nil } }
            driverStatus.change { status in
                status.alreadyThere = Self.alreadyThere(outcome)
                status.totalBytes = file.size
            }
            sender.send(.succeeded(request: request, file: file.path))
        case .success(.interrupted):
            // Stopped at a chunk boundary: for a pause, the machine may now move to paused. Otherwise the visit
            // ended (cancel or stop) and the next visit decides.
            if suspension.withLock({ $0.pauseAsked(in: sender.visit) }) { sender.send(.pause) }
        case .success(.cancelled):
            break
        case .failure(let error):
            let simulated = driverStatus.takeInjectedFault()
            sender.send(
                .failed(request: request, message: error.description + (simulated ? Self.simulatedFaultNote : "")))
        }
    }

    /// Entering idle after a cancel: the job's run has stopped (the gate orders this after it), so
    /// the partial is removed and the cancellation journaled. Skipped when the machine already moved
    /// on (a new start will continue the partial instead, which is just as correct).
    private func discard(for sender: StateMachine<TransferModel, TransferEvent>.Sender) async {
        await gate.run {
            guard sender.isCurrent else { return }
            let cancelled = job.withLock { job in
                defer { job = nil }
                return job
            }
            cancelled?.cancel()
        }
    }
}

/// Copy options held once for many transfers (a session's), each holding a reference rather than a copy of
/// the file system's table of calls.
package final class SharedCopyOptions: Sendable {
    /// The options.
    package let value: CopyOptions
    /// Whether a fault may be armed on the transfers copying with these options (``CopyTransfer/failNextOutcome()``):
    /// when not, their jobs copy with ``value`` itself.
    package let faultsCanBeArmed: Bool

    /// `value`, to share; `faultsCanBeArmed` when a transfer's armed fault must fail its next write.
    package init(_ value: CopyOptions, faultsCanBeArmed: Bool = true) {
        self.value = value
        self.faultsCanBeArmed = faultsCanBeArmed
    }
}

/// Whether a pause must stop a job run first: the decisions of ``CopyTransfer/perform(_:)`` and of the
/// running visit's work, kept under one lock so a pause and a run starting cannot miss each other.
private struct CopySuspension {
    /// The running visit whose work started a job run (which may have returned since), and that run.
    private var active: (visit: Int, run: JobRun)?
    /// The running visit a pause was asked in.
    private var pausedVisit: Int?

    /// What a pause does.
    enum PauseAction {
        /// Stop the active run at its next chunk boundary; the run's work sends `pause` once it stopped.
        case stopRun(JobRun)
        /// No run started in the visit, and none will: send `pause` to the machine now.
        case pauseNow
    }

    /// A pause in running visit `visit`.
    mutating func pause(visit: Int) -> PauseAction {
        pausedVisit = visit
        if let active, active.visit == visit { return .stopRun(active.run) }
        return .pauseNow
    }

    /// The work of `visit` started its job run `run`; false when a pause in that visit came first (the run must
    /// stop at once).
    mutating func runStarted(visit: Int, run: JobRun) -> Bool {
        guard pausedVisit != visit else { return false }
        active = (visit, run)
        return true
    }

    /// Whether a pause in `visit` asked its run to stop. The run stays registered after it returned: a pause
    /// arriving before the run's outcome reached the machine must not send `pause` past that outcome.
    func pauseAsked(in visit: Int) -> Bool {
        pausedVisit == visit
    }

    /// The run of `visit` returned and its outcome reached the machine: its stopper is let go (a completed row
    /// kept it, and through it the job's interrupt, for as long as the dashboard ran). A pause from now on finds
    /// no run and sends `pause`, which the machine judges in the state the outcome left.
    mutating func runEnded(visit: Int) {
        if active?.visit == visit { active = nil }
    }

    /// Whether a run's stopper is kept.
    var holdsRun: Bool { active != nil }
}

/// One run of a visit's work, from the slot it took to its outcome: the slot, given back once (when the run's files
/// are closed, a small file waiting for its commit batch, or when the run ends, whichever comes first); the stop a
/// pause asks of it (the run under way interrupted at once, one that has not begun yet as soon as it begins:
/// ``CopyJob/run(sizeHint:progress:filesClosed:stopAsked:)`` asks ``isStopped()``); and its byte progress, sent as
/// whole percents through the visit's sender only when the percent grows (a resumed or retried request may
/// restart below the percent the machine already shows).
///
/// One object a run: the slot, the stopper and the progress each had one of their own, three objects and a closure
/// a file of a tree copy.
private final class JobRun: Sendable {
    private struct State {
        var slotHeld = true
        var stopped = false
        /// The job, once the run has one (``begin(_:request:percent:)``): what a stop interrupts. Held strongly: the
        /// visit's suspension keeps this run only until its outcome reached the machine
        /// (``CopySuspension/runEnded(visit:)``, right after the report), so a completed transfer still lets its job
        /// go; a weak reference gave every job a side table and its release the slow path.
        var job: CopyJob?
        /// The request the progress is of, and the percent last sent.
        var request = 0
        var lastPercent = 0
    }

    private let slots: CopySlots
    private let sender: StateMachine<TransferModel, TransferEvent>.Sender
    private let state = Locked(State())

    /// A run holding a slot just taken from `slots`, its progress sent through `sender`.
    init(slot slots: CopySlots, sender: StateMachine<TransferModel, TransferEvent>.Sender) {
        self.slots = slots
        self.sender = sender
    }

    /// The run copies with `job`, for `request`, whose progress the machine shows at `percent`.
    func begin(_ job: CopyJob, request: Int, percent: Int) {
        state.withLock { state in
            state.job = job
            state.request = request
            state.lastPercent = percent
        }
    }

    /// Gives the slot back, the first time only.
    func releaseSlot() {
        let wasHeld = state.withLock { state in
            defer { state.slotHeld = false }
            return state.slotHeld
        }
        if wasHeld { slots.release() }
    }

    /// Marks the run stopped, then interrupts its job: a run that began before the mark is interrupted, and one that
    /// begins after it finds the mark.
    func stop() {
        let job = state.withLock { state in
            state.stopped = true
            return state.job
        }
        job?.interrupt()
    }

    /// Whether ``stop()`` was called.
    func isStopped() -> Bool {
        state.withLock { $0.stopped }
    }

    /// Sends the percent when it grew, or `always` at the percent reached so far.
    func forward(_ progress: CopyProgress, always: Bool = false) {
        let sent = state.withLock { state -> (request: Int, percent: Int)? in
            guard progress.percent > state.lastPercent else { return always ? (state.request, state.lastPercent) : nil }
            state.lastPercent = progress.percent
            return (state.request, state.lastPercent)
        }
        if let sent {
            sender.send(.progress(request: sent.request, percent: sent.percent))
        }
    }
}

extension CopyTransfer {
    /// Why a run that succeeded copied nothing: a skip by size and time (nothing was read), or a destination
    /// found to hold the source's content; nil for a file this run copied.
    static func alreadyThere(_ outcome: Result<CopyOutcome, TransferError>) -> String? {
        guard case .success(.alreadyComplete(let file)) = outcome else { return nil }
        return file.digest == nil ? "same size and time" : "same content"
    }
}

/// The driver status a ``CopyTransfer`` publishes: stale events counted and the armed fault.
private final class DriverStatus: Sendable {
    private let current: Locked<TransferDriverStatus>
    private let injectedFault = Locked(false)

    /// A status starting as `initial` (its size, when the file list read it).
    init(_ initial: TransferDriverStatus) {
        current = Locked(initial)
    }

    /// The status now.
    var value: TransferDriverStatus { current.withLock { $0 } }

    /// Applies `body` to the status.
    func change(_ body: (inout TransferDriverStatus) -> Void) {
        current.withLock { body(&$0) }
    }

    /// Records the source's size the first time a job reports it (and whenever it changes), and the percent
    /// the job is copying from once it reports bytes still to copy (a file found already there reports no progress);
    /// returns whether that changed the status.
    func note(_ progress: CopyProgress) -> Bool {
        current.withLock { status in
            let copyingFrom =
                status.copyingFromPercent
                ?? (progress.bytesWritten < progress.totalBytes ? UInt8(clamping: progress.percent) : nil)
            guard status.totalBytes != progress.totalBytes || status.copyingFromPercent != copyingFrom else {
                return false
            }
            status.totalBytes = progress.totalBytes
            status.copyingFromPercent = copyingFrom
            return true
        }
    }

    /// True once after `failNextOutcome()`: the write that asks fails.
    func takeArmedFailure() -> Bool {
        let armed = current.withLock { status in
            guard status.failsNextOutcome else { return false }
            status.failsNextOutcome = false
            return true
        }
        if armed { injectedFault.withLock { $0 = true } }
        return armed
    }

    /// True once after an armed fault failed a write: the failure it caused is a simulated one.
    func takeInjectedFault() -> Bool {
        injectedFault.withLock { injected in
            defer { injected = false }
            return injected
        }
    }

}
