/// A file that reached its final name: synced, verified and atomically renamed.
public struct CommittedFile: Hashable, Sendable, Codable {
    /// The final path.
    public let path: String
    /// Its size in bytes.
    public let size: Int64
    /// The SHA-256 of its content.
    public let digest: SHA256Digest
}
