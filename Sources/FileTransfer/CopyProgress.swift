/// How far a copy got, counted from bytes written to the partial.
public struct CopyProgress: Hashable, Sendable, CustomStringConvertible {
    /// Bytes in the partial.
    public var bytesWritten: Int64
    /// The source's size.
    public var totalBytes: Int64

    /// A progress report.
    public init(bytesWritten: Int64, totalBytes: Int64) {
        self.bytesWritten = bytesWritten
        self.totalBytes = totalBytes
    }

    /// Whole percent, 0...100; an empty source counts as 100. Reaching 100 is not completion: the
    /// commit (sync, verify, rename) follows.
    public var percent: Int {
        totalBytes <= 0 ? 100 : Int(bytesWritten * 100 / totalBytes)
    }

    /// `bytesWritten/totalBytes (percent%)`.
    public var description: String { "\(bytesWritten)/\(totalBytes) (\(percent)%)" }
}
