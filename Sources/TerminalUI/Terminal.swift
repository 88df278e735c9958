/// What a terminal backend reports about drawing one frame.
public struct DrawReport: Hashable, Sendable {
    /// Cells that differed from the previous frame (all of them after a reset).
    public var changedCells: Int
    /// Time spent finding the changed cells.
    public var diff: Duration
    /// Time spent handing them to the terminal and flushing.
    public var flush: Duration

    /// Creates a report.
    public init(changedCells: Int, diff: Duration, flush: Duration) {
        self.changedCells = changedCells
        self.diff = diff
        self.flush = flush
    }
}

/// A screen to draw canvases on and a source of keys: ncurses for people, headless for tests and demos.
/// A terminal is used by one thread at a time, the run loop's.
public protocol Terminal: AnyObject {
    /// The current size in cells.
    var size: Size { get }
    /// Wakes a blocked ``readKey(timeout:)`` from any thread.
    var wakeup: Wakeup { get }
    /// Shows `canvas`, writing only what changed since the previous frame.
    @discardableResult
    func draw(_ canvas: Canvas) -> DrawReport
    /// The next key: waits up to `timeout` (nil: until something happens). Returns nil on timeout or when
    /// woken by ``wakeup``.
    func readKey(timeout: Duration?) -> Key?
    /// Gives the terminal back to the shell and stops the process (Ctrl-Z); returns once continued.
    func suspend()
    /// Takes the terminal again after ``suspend()``; the next draw repaints everything.
    func resume()
    /// Puts the terminal back as it was found. Idempotent.
    func restore()
    /// Shows `progress` in the terminal's own progress indicator where the terminal has one (see
    /// ``TerminalProgress``); the indicator is removed again on the way out.
    func showProgress(_ progress: TerminalProgress)
    /// Puts `copy` on the system clipboard where the terminal can (``ClipboardCopy``), once per copy number.
    func copyToClipboard(_ copy: ClipboardCopy)
}

extension Terminal {
    /// No indicator to show: a terminal without one ignores progress.
    public func showProgress(_ progress: TerminalProgress) {}
    /// No clipboard: a terminal without one ignores copies.
    public func copyToClipboard(_ copy: ClipboardCopy) {}
}
