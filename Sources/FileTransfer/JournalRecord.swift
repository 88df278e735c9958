/// One line of the copy journal: an intention, a durable checkpoint or an outcome, keyed by file name.
public enum JournalRecord: Hashable, Sendable, Codable {
    /// Written before the partial is created: what is about to be copied. `replaces` is the digest of a
    /// final file this journal wrote earlier and may now overwrite.
    case intent(name: String, request: String, source: String, sourceStatus: FileStatus, replaces: SHA256Digest?)
    /// The partial's first `offset` bytes are on stable storage.
    case checkpoint(name: String, offset: Int64)
    /// The partial was synced and verified; the rename onto the final name comes next.
    case committing(name: String, size: Int64, digest: SHA256Digest)
    /// The final file exists with this size and digest.
    case completed(name: String, size: Int64, digest: SHA256Digest)
    /// The transfer failed; a partial may remain for a retry.
    case failed(name: String, reason: String)
    /// The transfer was cancelled and its partial removed.
    case cancelled(name: String)

    /// The final file name the record is about.
    public var name: String {
        switch self {
        case .intent(let name, _, _, _, _), .checkpoint(let name, _), .committing(let name, _, _),
            .completed(let name, _, _), .failed(let name, _), .cancelled(let name):
            name
        }
    }

    /// True when the record must be durable before the step after it starts, so `append` waits for its
    /// fsync. Two records need not:
    /// - an intention: what it precedes, a partial, is private and under a name reserved for the copy; a
    ///   crash that loses the line leaves a partial the next copy of that file replaces, and the
    ///   sync that makes the commitment record durable, before any rename, makes the intention durable with it;
    /// - a completion: it follows a rename already made durable; a crash that loses it leaves
    ///   `committing`, which the next run completes from the final file's digest.
    public var isWriteAhead: Bool {
        switch self {
        case .intent, .completed: false
        case .checkpoint, .committing, .failed, .cancelled: true
        }
    }
}
