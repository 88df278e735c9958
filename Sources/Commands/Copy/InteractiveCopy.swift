import DashboardApp
import Dispatch
import FileTransfer
import MachineDrivers
import StateMachineInspector
import Support
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `statetui copy` without `--headless`: a copy tool's dashboard, the Transfers screen with one row per file,
/// each driven by a real ``CopyTransfer`` made when the row is first started (the same keys as the simulated
/// rows: start, pause/resume, cancel, retry), their History and their Graph; the simulated Upload and Load screens stay in the demo dashboard.
/// `f` (a simulated write failure, said so in its message) only with `simulatesFaults` (`--simulate-faults`).
enum InteractiveCopy {
    /// What ``open(environment:writeError:session:)`` ends with.
    enum Opening {
        /// The session, holding every destination directory's lock, and all its files (read with
        /// ``CopySession/takeAllFiles()`` while the wait could still be shown: a tree's directories have
        /// journals of their own, each locked as it is reached).
        case opened(CopySession, files: CopyFiles)
        /// The session could not be prepared.
        case failed(CopySessionError)
        /// Nothing started: the user stopped waiting for another run (`q`: 1, Ctrl-C: 130), or no terminal
        /// could show the wait (2); the reason is already on standard error.
        case stopped(status: Int32)
    }

    /// Prepares the session with `session`, which waits while another `statetui copy` writes into one of the
    /// destination directories (the `WhenBusy` it is given says so). While it waits the terminal shows what
    /// for and for whom (``CopyWait``), and `q` or Ctrl-C gives up; without a wait no terminal is opened here.
    static func open(
        environment: [String: String], writeError: (String) -> Void,
        session make: @escaping @Sendable (CopyJournal.WhenBusy) throws(CopySessionError) -> CopySession
    ) -> Opening {
        let opening = SessionOpening()
        // The session's lock waits block: on a queue of its own, never the calling thread, which draws.
        DispatchQueue(label: "statetui copy: the destination's locks").async {
            let result: Result<(CopySession, CopyFiles), CopySessionError>
            do throws(CopySessionError) {
                let session = try make(.wait { journal, holder in opening.waiting(journal: journal, holder: holder) })
                result = .success((session, session.takeAllFiles()))
            } catch {
                result = .failure(error)
            }
            opening.finish(result)
        }
        let first = opening.firstNews()
        guard case .waiting(let journal, let holder) = first else {
            return opening.outcome
        }
        let terminal: NCursesTerminal
        do {
            terminal = try NCursesTerminal(environment: environment)
        } catch {
            writeError("statetui: \(error)\n")
            return .stopped(status: 2)
        }
        let final = CopyWait.app(.waiting(journal: journal, holder: holder), updates: opening.updates).run(on: terminal)
        terminal.restore()
        switch final {
        case .ready, .waiting:
            return opening.outcome
        case .gaveUp(let reason):
            let other = holder.map { "pid \($0)" } ?? "another process"
            writeError(
                "statetui: stopped waiting for \(DisplayText.escaped(journal)) (\(other)); nothing was copied\n")
            return .stopped(status: reason == .quit ? 1 : reason.status)
        }
    }

    /// Opens the dashboard on the session's files, one row each, starting them all first when `startAll`. A
    /// row's transfer and machine are made when it is first started (``TransfersRuntime``); with an
    /// `inspector`, every row's at once, so the inspector lists each machine from the start. After `q`
    /// the status is the session's outcome (``CopyExitStatus``: 0 only when every transfer completed, 1 when
    /// any failed or is not finished, each said on standard error); otherwise the dashboard's (130 after
    /// Ctrl-C, 2 without a usable terminal). On the
    /// way out every copy stops cleanly: partials synced and journaled for the next run, and a journal
    /// with nothing left to recover (every transfer completed or cancelled) removed. `q` while copies run
    /// asks first, unless `confirmsQuit` is false (`--no-confirm`).
    package static func run(
        _ session: CopySession, files: CopyFiles, inspector: Inspector? = nil, startAll: Bool,
        confirmsQuit: Bool = true, simulatesFaults: Bool = false, config: DashboardConfig = DashboardConfig(),
        io: CommandIO, environment: [String: String]
    ) -> Int32 {
        let transfers = TransfersRuntime(list: files, keepsMachines: inspector != nil)
        if let inspector {
            transfers.whenMade { inspector.register($0.machine.engine) }
            transfers.makeAll()
        }
        for message in session.takeMessages() { io.writeError("statetui: \(message)\n") }
        // The links, FIFOs, sockets and devices the session made reading the sources, as headless lines (the
        // dashboard's rows are files).
        for entry in session.takeMadeEntries() { io.writeOutput("\(entry)\n") }
        var options = DashboardOptions()
        options.config = config
        let status = Dashboard.run(
            options, environment: environment, writeError: io.writeError,
            transfers: transfers, confirmsQuit: confirmsQuit,
            mode: .copy(simulatesFaults: simulatesFaults)
        ) { _ in
            if startAll { transfers.perform(.sendAll([.start])) }
        }
        for problem in session.finish() { io.writeError("statetui: \(problem)\n") }
        // The hard links made at the end, once their files were copied.
        for entry in session.takeMadeEntries() { io.writeOutput("\(entry)\n") }
        if [SIGTERM, SIGHUP].contains(status - 128) {
            io.writeError(
                "statetui: stopped by \(StopRequest.name(of: status - 128)); \(StopRequest.keptForTheNextRun)\n")
        }
        return status == 0 ? CopyExitStatus.report(files.phases, io: io) : status
    }
}

/// A session being prepared on another thread: what it waits for, told to the waiting screen, and its result.
private final class SessionOpening: Sendable {
    /// The first news the caller waits for: a wait began, or the session is prepared.
    private let news = DispatchSemaphore(value: 0)
    private let first = Locked<CopyWait.Action?>(nil)
    private let result = Locked<Result<Prepared, CopySessionError>?>(nil)

    /// A prepared session on its way from the queue that made it to the caller.
    // Unchecked: the queue hands the session over once (``finish(_:)`` takes it `sending`) and never
    // touches it again, so one thread at a time uses it.
    private final class Prepared: @unchecked Sendable {
        let session: CopySession
        let files: CopyFiles
        init(_ prepared: (CopySession, CopyFiles)) { (session, files) = prepared }
    }
    private let continuation: AsyncStream<CopyWait.Action>.Continuation
    /// The waits and the end, for the waiting screen.
    let updates: AsyncStream<CopyWait.Action>

    init() {
        (updates, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// The session waits for `journal`, held by `holder`.
    func waiting(journal: String, holder: Int32?) {
        let action = CopyWait.Action.waiting(journal: journal, holder: holder)
        continuation.yield(action)
        first.withLock { $0 = $0 ?? action }
        tell()
    }

    /// The session is prepared, or failed.
    func finish(_ outcome: sending Result<(CopySession, CopyFiles), CopySessionError>) {
        let outcome = outcome.map(Prepared.init)
        result.withLock { $0 = outcome }
        first.withLock { $0 = $0 ?? .ready }
        continuation.yield(.ready)
        continuation.finish()
        tell()
    }

    /// Blocks until a wait began or the session is prepared; returns which came first.
    func firstNews() -> CopyWait.Action {
        precondition(DetachedThread.mayBlock, "opening a copy dashboard blocks its thread: never from a task")
        news.wait()
        return first.withLock { $0 } ?? .ready
    }

    /// The prepared session or its failure; blocks until it is there.
    var outcome: InteractiveCopy.Opening {
        precondition(DetachedThread.mayBlock, "opening a copy dashboard blocks its thread: never from a task")
        while true {
            if let result = result.withLock({ $0.take() }) {
                switch result {
                case .success(let prepared): return .opened(prepared.session, files: prepared.files)
                case .failure(let error): return .failed(error)
                }
            }
            news.wait()
        }
    }

    /// Wakes the caller once for the first news, and again for the end.
    private func tell() {
        news.signal()
    }
}
