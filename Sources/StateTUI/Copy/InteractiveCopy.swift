/// `statetui copy` without `--headless`: the dashboard's Transfers panel driven by real copies.
public enum InteractiveCopy {
    /// Opens the dashboard on the session's transfers; returns the exit status.
    public static func run(_ session: CopySession, startAll: Bool, io: CommandIO) -> Int32 {
        io.writeError("statetui: the interactive copy needs the dashboard, which this build lacks; use --headless\n")
        return 2
    }
}
