import SeedModels

/// What the Transfers screen needs from one transfer's effect owner, simulated or real: the machine
/// (the authority the rows show and the keys send to), a name, a status for the row's extras, fault
/// injection for `f`, and a way to stop.
///
/// A driver changes its status only just before its work sends the machine an event (or when `f` arms a
/// fault, which the screen reads back as the effect's result), so a screen that reads the status whenever
/// the machine records sees every change without a stream of its own per driver.
///
/// ``SimulatedTransfer`` drives its machine with simulated work on a clock; ``CopyTransfer`` (from
/// `statetui copy`) copies a real file. The screen, its keys and its runtime are the same for both.
package protocol TransferDriver: Sendable {
    /// The name the row shows.
    var name: String { get }
    /// The machine, the authority on the transfer's state.
    var machine: TransferMachine { get }
    /// The driver's status now: whether the next outcome is armed to fail, the file's size.
    var status: TransferDriverStatus { get }
    /// Sends a user's `event` (a key's intent the screen resolved): to the machine as it is, unless the
    /// driver must act before the machine may move (a real copy stops its job before it pauses).
    func perform(_ event: TransferEvent)
    /// Makes the next outcome a failure (simulated: the worker reports one; real: the next write fails).
    func failNextOutcome()
    /// Stops the machine (its work is cancelled).
    func stop()
    /// The first half of ``stop()``, without waiting: a caller stopping many transfers asks each first, so their
    /// work stops at once rather than one after another (a real copy's run stops at its next chunk boundary).
    func askToStop()
    /// Where a reader of the machine's records starts, so that none counts as missed: 0 (the first record), or
    /// for a machine restored from a settled row the record before the oldest it holds
    /// (``SettledTransfer/recordsStart``).
    var recordsStart: Int { get }
}

extension TransferDriver {
    /// A machine made new is read from its first record.
    package var recordsStart: Int { 0 }

    /// Nothing to ask ahead: ``stop()`` stops the machine and its work at once.
    package func askToStop() {}
}

extension SimulatedTransfer: TransferDriver {
    /// The simulated worker stops with its visit, so every event goes to the machine as it is.
    package func perform(_ event: TransferEvent) {
        machine.send(event)
    }
}
