/// Why a line of text is not a value of the canonical form, with the column where reading stopped.
public struct CanonicalTextError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based column (in Unicode scalars) where the problem was found; 0 when it concerns the
    /// whole value (a known syntax, but not a case the type has).
    public var column: Int
    /// What was wrong, in words.
    public var message: String

    /// An error at `column` (0 for the whole value).
    public init(column: Int, _ message: String) {
        self.column = column
        self.message = message
    }

    /// `column 9: expected ")"`, or just the message when the whole value is at fault.
    public var description: String {
        column > 0 ? "column \(column): \(message)" : message
    }
}
