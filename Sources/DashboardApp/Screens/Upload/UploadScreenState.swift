import SeedModels

/// What the Upload screen shows: the upload machine's newest state and what its records counted (never
/// changed here), whether the next upload is set to fail, and the reason the last refused key was refused.
package struct UploadScreenState: Hashable, Sendable {
    /// The machine's newest state.
    package var upload: UploadState
    /// The stale and invalid events among the machine's records.
    package var tally: RecordTally
    /// Whether the next start or retry fails half way (`f`).
    package var failNext: Bool
    /// Why the last action was refused, until the state changes or ``StatusExpiry/lifetime`` has passed.
    package var notice: StatusLine<String>

    /// The screen before anything happened.
    package init(
        upload: UploadState = .idle, tally: RecordTally = RecordTally(), failNext: Bool = false, notice: String? = nil
    ) {
        self.upload = upload
        self.tally = tally
        self.failNext = failNext
        self.notice = StatusLine(notice)
    }
}
