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

/// The drawing half of a terminal, a backend in ratatui's sense: a screen to draw canvases on (ncurses for
/// people; ``HeadlessTerminal`` for tests and demos, which keeps the text and styles drawn). Used by one
/// thread at a time, the run loop's.
public protocol TerminalBackend: AnyObject {
    /// The current size in cells.
    var size: Size { get }
    /// Shows `canvas`, writing only what changed since the previous frame.
    @discardableResult
    func draw(_ canvas: Canvas) -> DrawReport
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

extension TerminalBackend {
    /// No indicator to show: a terminal without one ignores progress.
    public func showProgress(_ progress: TerminalProgress) {}
    /// No clipboard: a terminal without one ignores copies.
    public func copyToClipboard(_ copy: ClipboardCopy) {}
}

/// The input half of a terminal: a source of decoded events (keys, mouse reports, resizes as ``Key``s), which
/// the run loop puts in the store's one inbox. Read by one thread at a time, the run loop's.
public protocol InputSource: AnyObject {
    /// Wakes a blocked ``readKey(timeout:)`` from any thread.
    var wakeup: Wakeup { get }
    /// The next event: waits up to `timeout` (nil: until something happens). Returns nil on timeout or when
    /// woken by ``wakeup``.
    func readKey(timeout: Duration?) -> Key?
}

/// A terminal as most programs have one: a backend to draw on and the source of its input together.
public typealias Terminal = InputSource & TerminalBackend
