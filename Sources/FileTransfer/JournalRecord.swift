/// One line of the copy journal: an intention, a durable checkpoint or an outcome, keyed by file name.
public enum JournalRecord: Hashable, Sendable, Codable {
    /// Written before the partial is created: what is about to be copied. `replaces` is the digest of a
    /// final file this journal wrote earlier and may now overwrite.
    case intent(name: String, request: String, source: String, sourceStatus: FileStatus, replaces: SHA256Digest?)
    /// The partial's first `offset` bytes are on stable storage.
    case checkpoint(name: String, offset: Int64)
    /// The partial was synced and verified; the rename onto the final name comes next.
    case committing(name: String, size: Int64, digest: SHA256Digest)
    /// A new file's intention and commitment in one record: the ``intent`` (replacing nothing) and the
    /// ``committing`` it stands for, as if written one after the other. A file with no name (a small file's copy,
    /// ``StagedFile/unnamed(_:in:chunkSize:budget:)``) is journaled only when it is committed: until it is named,
    /// nothing of it is on disk for an intention to tell a later run of, and a line of its own a file cost a tree
    /// copy a tenth of its CPU time.
    case committingFresh(name: String, intention: Intention, size: Int64, digest: SHA256Digest)
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
            .committingFresh(let name, _, _, _), .completed(let name, _, _), .failed(let name, _),
            .cancelled(let name):
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
        case .checkpoint, .committing, .committingFresh, .failed, .cancelled: true
        }
    }

    /// The commitment of `name`'s `size` bytes of SHA-256 `digest`: with the `intention` of a file no record
    /// announced yet (a file with no name), the two in one record (``committingFresh``).
    public static func commitment(
        name: String, size: Int64, digest: SHA256Digest, intention: Intention? = nil
    ) -> JournalRecord {
        guard let intention else { return .committing(name: name, size: size, digest: digest) }
        return .committingFresh(name: name, intention: intention, size: size, digest: digest)
    }

    /// The intent record of `name` saying `intention`, replacing the file of digest `replaces` if any.
    public static func intent(intention: Intention, name: String, replaces: SHA256Digest? = nil) -> JournalRecord {
        .intent(
            name: name, request: intention.request, source: intention.source, sourceStatus: intention.sourceStatus,
            replaces: replaces)
    }

    /// What an intention says of its file besides its name, which ``committingFresh`` carries: the request, the
    /// source's path and the source's status when the copy began.
    public struct Intention: Hashable, Sendable, Codable {
        /// The caller's request id (a tree's file: its path below the destination).
        public var request: String
        /// The source's path.
        public var source: String
        /// The source's size and modification time when the copy began.
        public var sourceStatus: FileStatus

        /// An intention to copy `source`, whose status is `sourceStatus`, for the request `request`.
        public init(request: String, source: String, sourceStatus: FileStatus) {
            self.request = request
            self.source = source
            self.sourceStatus = sourceStatus
        }
    }
}
