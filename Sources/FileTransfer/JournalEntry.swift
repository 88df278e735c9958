/// What the journal knows about one final file name after replaying its records in order.
public struct JournalEntry: Hashable, Sendable {
    /// Where the transfer stands.
    public enum Status: Hashable, Sendable {
        /// Intended or in progress; the partial's first `durableOffset` bytes are trustworthy.
        case inProgress
        /// Verified and about to be renamed (or renamed, if the completion record is missing).
        case committing(size: Int64, digest: SHA256Digest)
        /// The final file was written with this size and digest.
        case completed(size: Int64, digest: SHA256Digest)
        /// The last attempt failed for this reason; the partial up to `durableOffset` may be resumed.
        case failed(reason: String)
        /// Cancelled; no partial remains.
        case cancelled
        /// A corrupt or truncated line concerned this transfer: restart it from nothing.
        case damaged

        /// Completed or cancelled: nothing of it is left to recover.
        public var isSettled: Bool {
            switch self {
            case .completed, .cancelled: true
            case .inProgress, .committing, .failed, .damaged: false
            }
        }
    }

    /// The caller's request id from the intention.
    public var request: String
    /// The source path from the intention.
    public var source: String
    /// The source's size and modification time when the intention was written.
    public var sourceStatus: FileStatus?
    /// The last durable checkpoint.
    public var durableOffset: Int64
    /// Where the transfer stands.
    public var status: Status
    /// The digest of a final file this journal wrote (and may therefore replace).
    public var ownedDigest: SHA256Digest?

    /// A journal entry.
    public init(
        request: String, source: String, sourceStatus: FileStatus?, durableOffset: Int64, status: Status,
        ownedDigest: SHA256Digest?
    ) {
        self.request = request
        self.source = source
        self.sourceStatus = sourceStatus
        self.durableOffset = durableOffset
        self.status = status
        self.ownedDigest = ownedDigest
    }

    /// The entry after one more record about the same name; pure, so replay is testable on its own.
    public static func applying(_ record: JournalRecord, to entry: JournalEntry?) -> JournalEntry? {
        switch record {
        case .intent(_, let request, let source, let sourceStatus, let replaces):
            return JournalEntry(
                request: request, source: source, sourceStatus: sourceStatus, durableOffset: 0,
                status: .inProgress, ownedDigest: replaces ?? entry?.ownedDigest)
        case .checkpoint(_, let offset):
            guard var entry else { return nil }
            entry.durableOffset = offset
            entry.status = .inProgress
            return entry
        case .committing(_, let size, let digest):
            guard var entry else { return nil }
            entry.durableOffset = size
            entry.status = .committing(size: size, digest: digest)
            return entry
        case .committingFresh(let name, let intention, let size, let digest):
            // The two records it stands for, by their own rules: the intent (replacing nothing), then the commitment.
            let intended = applying(.intent(intention: intention, name: name), to: entry)
            return applying(.committing(name: name, size: size, digest: digest), to: intended)
        case .completed(_, let size, let digest):
            guard var entry else { return nil }
            entry.durableOffset = size
            entry.status = .completed(size: size, digest: digest)
            entry.ownedDigest = digest
            return entry
        case .failed(_, let reason):
            guard var entry else { return nil }
            entry.status = .failed(reason: reason)
            return entry
        case .cancelled:
            guard var entry else { return nil }
            entry.durableOffset = 0
            entry.status = .cancelled
            return entry
        }
    }
}
