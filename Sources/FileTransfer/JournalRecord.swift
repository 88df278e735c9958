/// One line of the copy journal: an intention, a durable checkpoint or an outcome, keyed by file name.
public enum JournalRecord: Hashable, Sendable, Codable {
    /// Written (and synced) before the partial is created: what is about to be copied. `replaces` is
    /// the digest of a final file this journal wrote earlier and may now overwrite.
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
}
