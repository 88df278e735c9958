/// A file that reached its final name: synced, verified and atomically renamed.
public struct CommittedFile: Hashable, Sendable, Codable {
    /// The final path.
    public let path: String
    /// Its size in bytes.
    public let size: Int64
    /// The SHA-256 of its content; nil for a file skipped because it has its source's size and
    /// modification time (like rsync, it was not read).
    public let digest: SHA256Digest?
}
