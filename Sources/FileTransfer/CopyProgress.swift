import Support

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

    /// Whole percent, 0...100; an empty source counts as 100, a source that grew past its size as 100 too.
    /// Reaching 100 is not completion: the commit (sync, verify, rename) follows. No size overflows it (a
    /// sparse file of 7 EiB made the copy trap).
    public var percent: Int {
        bytesWritten.wholePercent(of: totalBytes)
    }

    /// `bytesWritten/totalBytes (percent%)`.
    public var description: String { "\(bytesWritten)/\(totalBytes) (\(percent)%)" }
}
