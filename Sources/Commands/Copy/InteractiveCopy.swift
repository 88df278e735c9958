import DashboardApp
import MachineDrivers
import StateMachineInspector

/// `statetui copy` without `--headless`: a copy tool's dashboard, the Transfers screen with one row per file,
/// each driven by a real ``CopyTransfer`` (the same keys as the simulated rows: start, pause/resume, cancel,
/// retry), their History and their Graph; the simulated Upload and Load screens stay in the demo dashboard.
/// `f` (a simulated write failure, said so in its message) only with `simulatesFaults` (`--simulate-faults`).
enum InteractiveCopy {
    /// Opens the dashboard on the session's transfers, starting them all first when `startAll`. After `q`
    /// the status is the session's outcome (``CopyExitStatus``: 0 only when every transfer completed, 1 when
    /// any failed or is not finished, each said on standard error); otherwise the dashboard's (130 after
    /// Ctrl-C, 2 without a usable terminal). On the
    /// way out every copy stops cleanly: partials synced and journaled for the next run, and a journal
    /// with nothing left to recover (every transfer completed or cancelled) removed. `q` while copies run
    /// asks first, unless `confirmsQuit` is false (`--no-confirm`).
    package static func run(
        _ session: CopySession, inspector: Inspector? = nil, startAll: Bool, confirmsQuit: Bool = true,
        simulatesFaults: Bool = false, io: CommandIO, environment: [String: String]
    ) -> Int32 {
        let transfers = session.takeAllTransfers()
        for transfer in transfers { inspector?.register(transfer.machine.engine) }
        for message in session.takeMessages() { io.writeError("statetui: \(message)\n") }
        let status = Dashboard.run(
            DashboardOptions(), environment: environment, writeError: io.writeError,
            transfers: TransfersRuntime(drivers: transfers), confirmsQuit: confirmsQuit,
            mode: .copy(simulatesFaults: simulatesFaults)
        ) { _ in
            if startAll {
                for transfer in transfers { transfer.machine.send(.start) }
            }
        }
        for problem in session.removeSettledJournals() { io.writeError("statetui: \(problem)\n") }
        return status == 0 ? CopyExitStatus.report(transfers, io: io) : status
    }
}
