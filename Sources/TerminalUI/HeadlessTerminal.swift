import Support

/// One scripted input of a ``HeadlessTerminal``.
public enum HeadlessInput: Hashable, Sendable {
    /// A key press.
    case key(Key)
    /// The window becomes this size (delivered as ``Key/resize``).
    case resize(Size)
}

/// An in-memory terminal: keeps the screen as a ``Canvas``, prints it as plain text, and plays scripted keys.
/// Safe to share between threads (a test scripts it while a run loop draws on it).
public final class HeadlessTerminal: Terminal, Sendable {
    private struct Screen {
        var size: Size
        var canvas: Canvas?
        var frames = 0
        var script: [HeadlessInput]
        var suspensions = 0
        var restored = false
        var progress = TerminalProgress.none
        var copies: [ClipboardCopy] = []
    }

    private let screen: Locked<Screen>
    /// Wakes a blocked read; scripting a key also wakes it.
    public let wakeup = Wakeup()

    /// A terminal of `size` that will deliver `script` in order.
    public init(size: Size, script: [HeadlessInput] = []) {
        screen = Locked(Screen(size: size, script: script))
    }

    /// The current size.
    public var size: Size { screen.withLock { $0.size } }

    /// The last frame drawn (a blank canvas of the current size before the first).
    public var canvas: Canvas { screen.withLock { $0.canvas ?? Canvas(size: $0.size) } }

    /// The screen as plain text, one line per row.
    public var text: String { canvas.text }

    /// How many frames were drawn.
    public var frameCount: Int { screen.withLock { $0.frames } }

    /// How many times the terminal was suspended.
    public var suspensionCount: Int { screen.withLock { $0.suspensions } }

    /// Whether ``restore()`` was called.
    public var isRestored: Bool { screen.withLock { $0.restored } }

    /// The progress indicator last shown (``TerminalProgress/none`` again once restored, as a real terminal
    /// is left).
    public var progress: TerminalProgress { screen.withLock { $0.progress } }

    /// Scripts more input, delivered after what is already scripted.
    public func enqueue(_ inputs: [HeadlessInput]) {
        screen.withLock { $0.script.append(contentsOf: inputs) }
        wakeup.wake()
    }

    /// Scripts key presses.
    public func enqueue(keys: [Key]) {
        enqueue(keys.map(HeadlessInput.key))
    }

    /// Keeps the frame; counts the changed cells like a real terminal would.
    @discardableResult
    public func draw(_ canvas: Canvas) -> DrawReport {
        let clock = ContinuousClock()
        let start = clock.now
        let changed = screen.withLock { screen in
            let count = canvas.forEachChange(from: screen.canvas) { _, _, _ in }
            screen.canvas = canvas
            screen.frames += 1
            return count
        }
        return DrawReport(changedCells: changed, diff: clock.now - start, flush: .zero)
    }

    /// The next scripted input; when none is left, waits for more (or a wake-up) up to `timeout`.
    public func readKey(timeout: Duration?) -> Key? {
        if let key = nextScripted() { return key }
        wakeup.wait(timeout: timeout)
        return nextScripted()
    }

    /// Counts the suspension; nothing to give back.
    public func suspend() {
        screen.withLock { $0.suspensions += 1 }
    }

    /// Forgets the last frame so the next draw repaints everything, like a real terminal after Ctrl-Z.
    public func resume() {
        screen.withLock { $0.canvas = nil }
    }

    /// Marks the terminal restored and removes the progress indicator.
    public func restore() {
        screen.withLock {
            $0.restored = true
            $0.progress = .none
        }
    }

    /// Keeps the indicator, to be read back by ``progress``.
    public func showProgress(_ progress: TerminalProgress) {
        screen.withLock { $0.progress = progress }
    }

    /// The copies put on the clipboard, each number once, in order.
    public var copies: [ClipboardCopy] { screen.withLock { $0.copies } }

    /// Keeps a copy not kept yet, to be read back by ``copies``.
    public func copyToClipboard(_ copy: ClipboardCopy) {
        screen.withLock { if $0.copies.last?.number != copy.number { $0.copies.append(copy) } }
    }

    private func nextScripted() -> Key? {
        screen.withLock { screen in
            guard !screen.script.isEmpty else { return nil }
            switch screen.script.removeFirst() {
            case .key(let key):
                return key
            case .resize(let size):
                screen.size = size
                return .resize
            }
        }
    }
}
