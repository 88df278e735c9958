import CNCurses

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a real terminal could not be opened; the message names the cause in one line.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Standard output is a file or pipe.
    case notATerminal
    /// `TERM` is unset or empty.
    case terminalTypeNotSet
    /// curses has no description of `TERM`'s value (or it cannot address the cursor).
    case unknownTerminalType(String)
    /// Standard input is not a terminal and `/dev/tty` could not be opened for keys.
    case noKeyboard(String)
    /// `TERM`'s description cannot move the cursor (`TERM=dumb`): a frame would come out on one line.
    case cannotAddressCursor(String)

    /// The one-line message.
    public var description: String {
        switch self {
        case .notATerminal: "standard output is not a terminal"
        case .terminalTypeNotSet: "TERM is not set; cannot drive the terminal"
        case .unknownTerminalType(let type): "unknown terminal type '\(type)' (TERM)"
        case .noKeyboard(let reason): "cannot read keys: standard input is not a terminal and /dev/tty \(reason)"
        case .cannotAddressCursor(let type):
            "terminal type '\(type)' (TERM) cannot move the cursor; set TERM to a full terminal such as "
                + "xterm-256color, or use --headless (statetui demo NAME --headless, statetui copy --headless)"
        }
    }
}

/// The real terminal through ncursesw: alternate screen, hidden cursor, raw keys (Ctrl-C and Ctrl-Z arrive
/// as keys), a 25 ms Esc delay, colours unless `NO_COLOR` is set, and only changed cells written per frame.
/// When asked, the mouse is reported (xterm modes 1000 and 1006: clicks and the wheel arrive as
/// ``Key/mouse(_:)``), and the terminal's own progress indicator is driven where it has one
/// (``TerminalProgress``). The terminal is restored — mouse reporting off, progress indicator removed — by
/// ``restore()``, on deinit, and by signal handlers for every catchable signal whose default action ends the
/// process (SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE … and the crash signals),
/// which restore and then die of the same signal. A terminal without an alternate screen is cleared on the
/// way out. The size comes from the terminal (`TIOCGWINSZ`), `LINES` and `COLUMNS` only when it cannot tell.
public final class NCursesTerminal: Terminal {
    private struct PairKey: Hashable {
        var foreground: Int
        var background: Int
    }

    /// Wakes a blocked ``readKey(timeout:)``; also written by the SIGWINCH handler.
    public let wakeup = Wakeup()
    /// Whether colours are in use (false under `NO_COLOR` or on a monochrome terminal).
    public let usesColor: Bool
    /// How many colours curses reports the terminal has (its `COLORS`), 0 when colour is off.
    public var colorCount: Int { usesColor ? Int(cn_colors()) : 0 }
    /// The characters this terminal can show, chosen from the locale: every cell passes through it.
    public let glyphs: GlyphSet
    /// Whether mouse reports were asked for.
    public let reportsMouse: Bool
    /// Whether the terminal shows ``TerminalProgress`` (from the environment it was opened with).
    public let showsProgress: Bool

    /// Turns mouse reporting on: button presses and releases with the wheel (1000), in SGR form (1006).
    static let mouseOn = "\u{1B}[?1000h\u{1B}[?1006h"
    /// Turns mouse reporting off again.
    static let mouseOff = "\u{1B}[?1006l\u{1B}[?1000l"

    /// What clears the screen on the way out of a terminal without an alternate screen (TERM=vt100, linux,
    /// ansi), where the last frame would otherwise stay under the shell's prompt; empty for the others.
    private let clearOnExit: String
    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private let inputFile: UnsafeMutablePointer<FILE>
    private let ownsInputFile: Bool
    private var previous: Canvas?
    /// The cells the frame being drawn changes, kept between frames for its capacity.
    private var changedPositions: [(x: Int32, y: Int32)] = []
    private var pairs: [PairKey: Int32] = [:]
    /// The number of the last ``ClipboardCopy`` written.
    private var lastCopy: Int?
    private var isRestored = false
    /// Whether the stop signal received was handed out as Ctrl-C.
    private var stopDelivered = false
    private var characters: [wchar_t] = []
    private var decoder = KeyDecoder()
    /// Keys decoded from input already read, handed out one per ``readKey(timeout:)``.
    private var decoded: [Key] = []
    /// The indicator last shown (``TerminalProgress/none`` until the app shows one).
    private var progress = TerminalProgress.none

    /// Opens the terminal on standard output. Throws ``TerminalError`` (never exits) when standard output is
    /// not a terminal or `TERM` is unset, unknown or cannot move the cursor.
    /// - Parameters:
    ///   - environment: where `TERM`, `NO_COLOR`, the locale variables and the variables that say whether
    ///     the terminal has a progress indicator are read from (the locale itself is selected from the
    ///     process's environment by `setlocale`).
    ///   - mouse: whether to ask the terminal to report clicks and the wheel.
    ///   - stopsOnSignals: whether SIGTERM, SIGHUP and SIGINT ask the program to stop instead of ending it
    ///     (``stopSignal``): the first arrives as Ctrl-C, so the app quits its own way; a second one ends the
    ///     process as without.
    public init(environment: [String: String], mouse: Bool = false, stopsOnSignals: Bool = false) throws {
        guard isatty(STDOUT_FILENO) == 1 else { throw TerminalError.notATerminal }
        guard let type = environment["TERM"], !type.isEmpty else { throw TerminalError.terminalTypeNotSet }
        glyphs = NCursesTerminal.chooseLocale(environment: environment)
        let input: UnsafeMutablePointer<FILE>
        if isatty(STDIN_FILENO) == 1 {
            input = cn_stdin()
            ownsInputFile = false
        } else {
            guard let tty = fopen("/dev/tty", "r") else {
                throw TerminalError.noKeyboard("could not be opened (errno \(errno))")
            }
            input = tty
            ownsInputFile = true
        }
        inputFile = input
        reportsMouse = mouse
        showsProgress = TerminalProgress.isSupported(environment: environment)
        cn_save_signal_dispositions()
        // The window's size from the terminal itself; COLUMNS and LINES only where it cannot tell.
        cn_prefer_terminal_size()
        guard let screen = type.withCString({ cn_newterm($0, cn_stdout(), input) }) else {
            if ownsInputFile { fclose(input) }
            throw TerminalError.unknownTerminalType(type)
        }
        guard cn_can_address_cursor() != 0 else {
            _ = endwin()
            cn_delscreen(screen)
            if ownsInputFile { fclose(input) }
            throw TerminalError.cannotAddressCursor(type)
        }
        self.screen = screen
        _ = cn_set_term(screen)
        // ncurses 6.2 and later flush their output at every cursor movement until the screen has been
        // suspended once (it cannot tell a low-level terminfo program's `mvcur` from its own), so a frame went
        // out in dozens of writes of a few bytes, each waking the terminal. Suspended and resumed here, before
        // anything is drawn (the normal screen shows for the microseconds between the two), every frame from
        // then on is buffered and written once, at its end.
        _ = endwin()
        _ = doupdate()
        clearOnExit =
            cn_has_alternate_screen() != 0
            ? "" : cn_clear_sequence().map { Self.withoutPadding(String(cString: $0)) } ?? ""
        window = cn_stdscr()
        raw()
        noecho()
        nonl()
        _ = keypad(window, true)
        _ = intrflush(window, false)
        _ = leaveok(window, true)
        wtimeout(window, 0)
        _ = cn_set_escdelay(25)
        _ = curs_set(0)
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        if !noColor && has_colors() {
            _ = start_color()
            _ = use_default_colors()
            usesColor = true
        } else {
            usesColor = false
        }
        cn_stop_gracefully(stopsOnSignals ? 1 : 0)
        cn_install_signal_handlers(wakeup.writeDescriptor)
        enterModes()
    }

    /// The first SIGTERM, SIGHUP or SIGINT received while they ask to stop (`stopsOnSignals`), nil when none
    /// was; still there once the terminal is restored, so the program can end with `128 + signal`.
    public var stopSignal: Int32? {
        let received = cn_received_stop_signal()
        return received == 0 ? nil : received
    }

    /// Ctrl-C once for a stop signal received: the app's own way to quit at once.
    private func stopKey() -> Key? {
        guard !stopDelivered, stopSignal != nil else { return nil }
        stopDelivered = true
        return .controlC
    }

    deinit {
        restore()
    }

    /// The screen size curses knows.
    public var size: Size {
        var rows: Int32 = 0
        var columns: Int32 = 0
        cn_getmaxyx(window, &rows, &columns)
        return Size(width: Int(columns), height: Int(rows))
    }

    /// Writes the cells that changed since the last frame, then flushes once.
    @discardableResult
    public func draw(_ canvas: Canvas) -> DrawReport {
        let clock = ContinuousClock()
        let start = clock.now
        let screenSize = size
        // Where the changed cells are, 8 bytes each, not copies of them: a full 120×40 frame's list stays under
        // 64 KB. As (x, y, cell) copies of 40 bytes it grew by doubling to 320 KB, which glibc maps and unmaps,
        // and releasing it raised glibc's mapping and trimming thresholds for the rest of the run.
        changedPositions.removeAll(keepingCapacity: true)
        let changed = canvas.forEachChange(from: previous) { x, y, _ in
            if x < screenSize.width && y < screenSize.height { changedPositions.append((Int32(x), Int32(y))) }
        }
        let diffed = clock.now
        for (x, y) in changedPositions {
            put(canvas[Int(x), Int(y)], x: Int(x), y: Int(y))
        }
        _ = wnoutrefresh(window)
        _ = doupdate()
        previous = canvas
        return DrawReport(changedCells: changed, diff: diffed - start, flush: clock.now - diffed)
    }

    /// The next key, waiting up to `timeout` for input, a resize or a wake-up.
    public func readKey(timeout: Duration?) -> Key? {
        if let key = stopKey() { return key }
        if cn_take_resize() != 0 { return applyResize() }
        if let key = nextKey() { return key }
        wakeup.wait(orReadable: fileno(inputFile), timeout: timeout)
        if let key = stopKey() { return key }
        if cn_take_resize() != 0 { return applyResize() }
        return nextKey()
    }

    /// Leaves curses mode (mouse reporting off, progress indicator removed) and stops the process; returns
    /// once the shell continues it.
    public func suspend() {
        leaveModes()
        _ = endwin()
        cn_stop_self()
    }

    /// Re-enters curses mode at the (possibly new) size; the next draw repaints every cell.
    public func resume() {
        _ = applyResize()
        _ = clearok(cn_curscr(), true)
        previous = nil
        enterModes()
    }

    /// Writes `copy` as OSC 52 once per copy number, past curses' buffer between frames (the sequence moves
    /// nothing on screen).
    public func copyToClipboard(_ copy: ClipboardCopy) {
        guard !isRestored, copy.number != lastCopy else { return }
        lastCopy = copy.number
        writeRaw(copy.sequence)
    }

    /// Shows `progress` in the terminal's indicator when it has one (``showsProgress``); writes only when it
    /// changed.
    public func showProgress(_ progress: TerminalProgress) {
        guard showsProgress, !isRestored, progress != self.progress else { return }
        self.progress = progress
        writeRaw(progress.sequence)
        cn_set_exit_bytes(exitBytes)
    }

    /// Ends curses mode, puts the signal handlers back and frees the screen. Idempotent.
    public func restore() {
        guard !isRestored else { return }
        isRestored = true
        cn_remove_signal_handlers()
        leaveModes()
        _ = curs_set(1)
        _ = endwin()
        // endwin left the cursor on the last line: clear again so the prompt starts at the top.
        writeRaw(clearOnExit)
        cn_delscreen(screen)
        if ownsInputFile { fclose(inputFile) }
    }

    /// The next decoded key: reads what input is waiting until some key is complete; once nothing more is
    /// waiting, a held-back Esc (or a report cut short) comes out as the keys it was.
    private func nextKey() -> Key? {
        var value: UInt32 = 0
        while decoded.isEmpty {
            let status = cn_get_wch(window, &value)
            guard let input = WideInput(status: status, value: value) else {
                decoded = decoder.flush()
                break
            }
            // KEY_RESIZE from curses only echoes a resize our SIGWINCH handler already reported.
            decoded = decoder.feed(input).filter { $0 != .resize }
        }
        return decoded.isEmpty ? nil : decoded.removeFirst()
    }

    /// What undoes the modes this terminal set: written by ``restore()`` and by the fatal-signal handlers.
    private var exitBytes: String {
        (reportsMouse ? NCursesTerminal.mouseOff : "")
            + (showsProgress && progress != .none ? TerminalProgress.none.sequence : "") + clearOnExit
    }

    /// Turns mouse reporting on (when asked) and shows the progress indicator again after a suspension.
    private func enterModes() {
        if reportsMouse {
            _ = cn_disable_curses_mouse_key()
            writeRaw(NCursesTerminal.mouseOn)
        }
        if showsProgress && progress != .none { writeRaw(progress.sequence) }
        cn_set_exit_bytes(exitBytes)
    }

    /// Undoes what ``enterModes()`` did (the progress indicator is kept, to be shown again on resume).
    private func leaveModes() {
        cn_set_exit_bytes("")
        writeRaw(exitBytes)
    }

    /// Writes bytes past curses' buffer; a terminal that is gone is not an error worth dying of.
    private func writeRaw(_ text: String) {
        guard !text.isEmpty else { return }
        let length = text.utf8.count
        _ = text.withCString { cn_write_raw($0, length) }
    }

    private func applyResize() -> Key {
        var rows: Int32 = 0
        var columns: Int32 = 0
        if cn_terminal_size(STDOUT_FILENO, &rows, &columns) == 0 {
            _ = resizeterm(rows, columns)
        }
        _ = clearok(cn_curscr(), true)
        previous = nil
        return .resize
    }

    private func put(_ cell: Cell, x: Int, y: Int) {
        let style = usesColor ? cell.style : cell.style.monochrome
        var attributes = cn_a_normal()
        if style.attributes.contains(.bold) { attributes |= cn_a_bold() }
        if style.attributes.contains(.reverse) { attributes |= cn_a_reverse() }
        if style.attributes.contains(.dim) { attributes |= cn_a_dim() }
        if style.attributes.contains(.underline) { attributes |= cn_a_underline() }
        let pair = usesColor ? colorPair(style) : 0
        characters.removeAll(keepingCapacity: true)
        for scalar in glyphs.shown(cell.grapheme).unicodeScalars {
            characters.append(wchar_t(bitPattern: scalar.value))
        }
        if characters.isEmpty { characters.append(0x20) }
        characters.append(0)
        _ = characters.withUnsafeBufferPointer { buffer in
            cn_put_cell(window, Int32(y), Int32(x), buffer.baseAddress, attributes, pair)
        }
    }

    /// The curses pair for a style's colours, allocated the first time it is needed.
    private func colorPair(_ style: Style) -> Int32 {
        let key = PairKey(foreground: paletteColor(style.foreground), background: paletteColor(style.background))
        if key.foreground == -1 && key.background == -1 { return 0 }
        if let pair = pairs[key] { return pair }
        let next = Int32(pairs.count + 1)
        guard next < cn_color_pairs(), next <= Int32(Int16.max) else { return 0 }
        // The extended call takes colours beyond a short: a direct-colour terminal's 24-bit values.
        _ = init_extended_pair(next, Int32(key.foreground), Int32(key.background))
        pairs[key] = next
        return next
    }

    /// The colour number curses can show: a 24-bit colour itself on a direct-colour terminal (its terminfo has
    /// `COLORS` = 2^24, like xterm-direct), else the nearest palette entry; bright colours fall back to their base
    /// on 8-colour terminals.
    private func paletteColor(_ color: Color) -> Int {
        let available = Int(cn_colors())
        if let (red, green, blue) = color.components, available >= 1 << 24 {
            return Int(red) << 16 | Int(green) << 8 | Int(blue)
        }
        let index = Int(color.paletteIndex)
        if index < available { return index }
        if index < 16 { return index % 8 }
        return -1
    }

    /// A terminfo string without its padding (`$<50>`: a delay for terminals of old, which `tputs` would
    /// wait out and a raw write would print).
    package static func withoutPadding(_ sequence: String) -> String {
        sequence.replacing(/\$<[0-9.*\/]*>/, with: "")
    }

    /// The user's locale, and the glyphs it can show. ncursesw only emits wide characters under a UTF-8
    /// locale, so when no locale is named at all C.UTF-8 is taken for the characters' encoding.
    private static func chooseLocale(environment: [String: String]) -> GlyphSet {
        _ = setlocale(LC_ALL, "")
        let glyphs = GlyphSet.forLocale(environment: environment, selectedLocaleIsUTF8: cn_locale_is_utf8() != 0)
        if glyphs == .unicode && cn_locale_is_utf8() == 0 {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        }
        return glyphs
    }
}
