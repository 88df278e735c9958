import MachineDrivers
import ScreenStates
import StateMachineKit

/// What can happen on the Transfers screen: the user's keys and the snapshots of machines and workers.
public enum TransfersAction: Hashable, Sendable {
    /// Select the row above (`↑`, `k`).
    case selectPrevious
    /// Select the row below (`↓`, `j`).
    case selectNext
    /// Start the selected transfer (`s`).
    case start
    /// Pause the selected transfer when running, resume it when paused (space, `p`).
    case togglePause
    /// Cancel the selected transfer (`c`).
    case cancel
    /// Retry the selected failed transfer (`r`).
    case retry
    /// Make the selected transfer's next outcome a failure (`f`).
    case failNextOutcome
    /// Open the selected transfer's detail pane, or close it when open (Enter).
    case toggleDetail
    /// Close the detail pane (Esc).
    case closeDetail
    /// Scroll the detail pane to show from line `to` (PgUp/PgDn/Home/End, resolved against the drawn pane).
    case scrollDetail(to: Int)
    /// Show states as canonical text instead of words, or back (`v`).
    case toggleStateText
    /// Row `row`'s machine published `model`.
    case machineChanged(row: Int, TransferModel)
    /// Row `row`'s machine published `model`, seen as the runtime measured `sample` (time, visit, timeout).
    case machineSampled(row: Int, TransferModel, TransferSample)
    /// Row `row`'s simulated worker published `status`.
    case simulationChanged(row: Int, SimulationStatus)
    /// Row `row`'s machine's records now (stale ones included).
    case recordsChanged(row: Int, [StateMachine<TransferModel, TransferEvent>.Record])
}
