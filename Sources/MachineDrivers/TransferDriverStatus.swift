/// What a transfer's driver (``TransferDriver``: a simulated worker or a real copy) reports about itself, apart
/// from the machine's state.
package struct TransferDriverStatus: Hashable, Sendable {
    // Declared widest first, so the flag and the small percent sit in the optional size's padding: 32 bytes a
    // status instead of 48, in every dashboard row that learned anything and in every transfer.

    /// Why the file was not copied although the transfer completed: the destination already held it
    /// (`same size and time`, or `same content` when compared or recorded so); nil when it was copied.
    package var alreadyThere: String?
    /// The size of the file the transfer produces, in bytes; nil until the driver knows it (a real copy
    /// learns it when its job opens the source).
    package var totalBytes: Int64?
    /// Whether the next outcome the worker reports will be a failure (`f`).
    package var failsNextOutcome: Bool
    /// The percent at which the driver began moving bytes: a real copy's job opened its source and found bytes
    /// still to copy, from this percent of them on (above 0 for a partial it continues); nil while it waits for a
    /// slot, and for a file found already at the destination.
    ///
    /// The status is noted before the machine hears of the progress, so a reader can see it beside a state
    /// recorded earlier: a running state is one of the copy's only from this percent on (a resumed file's start
    /// reads 0% until its first progress brings the percent it continues from).
    package var copyingFromPercent: UInt8?

    /// Whether the driver has begun moving bytes (``copyingFromPercent``).
    package var isCopying: Bool { copyingFromPercent != nil }

    /// A status.
    package init(
        failsNextOutcome: Bool = false, totalBytes: Int64? = nil, alreadyThere: String? = nil,
        copyingFromPercent: UInt8? = nil
    ) {
        self.failsNextOutcome = failsNextOutcome
        self.totalBytes = totalBytes
        self.alreadyThere = alreadyThere
        self.copyingFromPercent = copyingFromPercent
    }
}
