/// A journal line that could not be trusted, reported when the journal is opened.
public struct JournalProblem: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number in the journal file.
    public var line: Int
    /// Why the line was rejected.
    public var reason: String
    /// The file name the line seems to concern (its transfer restarts), when it could be made out.
    public var name: String?

    /// A problem report.
    public init(line: Int, reason: String, name: String?) {
        self.line = line
        self.reason = reason
        self.name = name
    }

    /// `journal line 3: checksum mismatch (affects "a.bin", which restarts)`: one line, whatever the
    /// journal held: reason and name are escaped and quoted to at most ``DisplayText/quoteLimit``
    /// characters each.
    public var description: String {
        let limit = DisplayText.quoteLimit
        let affected = name.map { " (affects \"\(DisplayText.escaped($0, limit: limit))\", which restarts)" } ?? ""
        return "journal line \(line): \(DisplayText.escaped(reason, limit: limit))\(affected)"
    }
}
