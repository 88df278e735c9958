import FileTransfer
import MachineDrivers
import SeedModels

/// How a copy session ended, as its exit status and standard error tell it, for the dashboard and for
/// `--headless` alike (one job's end is FileTransfer's `CopyOutcome`; this is the whole session's): each failed file with its reason, how many failed, and how many were left unfinished
/// (quit before they completed, or cancelled: the same command copies them).
enum CopyExitStatus {
    /// Writes each failed transfer's reason and the counts to `io`'s standard error; returns 0 when every
    /// transfer completed, 1 when any failed or is not finished.
    /// `transfers` are each transfer's name and phase (``CopyFiles/phases``).
    static func report(_ transfers: [(name: String, phase: TransferState)], io: CommandIO) -> Int32 {
        var failures: [(name: String, message: String)] = []
        var unfinished = 0
        for transfer in transfers {
            switch transfer.phase {
            case .completed: break
            case .failed(let message): failures.append((transfer.name, message))
            case .idle, .running, .paused: unfinished += 1
            }
        }
        return report(failures: failures, unfinished: unfinished, of: transfers.count, io: io)
    }

    /// ``report(_:io:)`` from what a streaming run kept: the failed transfers' names (escaped) and reasons,
    /// how many did not finish, of how many transfers.
    static func report(failures: [(name: String, message: String)], unfinished: Int, of count: Int, io: CommandIO)
        -> Int32
    {
        for failure in failures {
            // The name, like the reason, is quoted at most 200 characters long (a path deep in a tree can be
            // thousands).
            io.writeError(
                "statetui: \(DisplayText.bounded(failure.name)): \(DisplayText.escaped(failure.message))\n")
        }
        let failed = failures.count
        if failed > 0 { io.writeError("statetui: \(failed) of \(count) transfers failed\n") }
        if unfinished > 0 {
            io.writeError(
                "statetui: \(unfinished) of \(count) transfers did not complete (not started, paused or "
                    + "cancelled); the same command copies them\n")
        }
        return failed + unfinished == 0 ? 0 : 1
    }
}
