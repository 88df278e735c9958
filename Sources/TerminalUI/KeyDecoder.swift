import CNCurses

/// What one `get_wch` call returned: a character (status `OK`) or a key code (status `KEY_CODE_YES`).
public enum WideInput: Hashable, Sendable {
    /// A character code, including control bytes (raw mode delivers Ctrl-C as 3).
    case character(UInt32)
    /// A curses key code (`KEY_UP`, `KEY_RESIZE`, `KEY_F0 + n` …).
    case keyCode(Int32)
}

extension WideInput {
    /// The unit a `get_wch` status and value stand for (`OK` a character, `KEY_CODE_YES` a key code); nil for
    /// `ERR`, no input.
    public init?(status: Int32, value: UInt32) {
        switch status {
        case OK: self = .character(value)
        case KEY_CODE_YES: self = .keyCode(Int32(bitPattern: value))
        default: return nil
        }
    }
}

/// Turns curses input into ``Key``s: a pure table for single units (``decode(_:)``), and a small state machine
/// over the stream (``feed(_:)``, ``flush()``) that also reads the mouse reports curses passes through as
/// characters, so every mapping is tested without a terminal.
///
/// A mouse report is xterm's SGR form (mode 1006), `ESC [ < button ; column ; row M` for a press (`m` for a
/// release), column and row counted from 1; the legacy form `ESC [ M` and three bytes is read too, for a
/// terminal that ignores mode 1006. Anything that turns out not to be a report comes out as the keys it would
/// have been one unit at a time (Esc, `[`, `<` …), so nothing typed is lost; a report is at most
/// ``maximumReportLength`` units, so a hostile stream never grows the decoder.
public struct KeyDecoder: Sendable {
    /// Where the decoder is inside a possible mouse report.
    private enum Phase: Sendable {
        /// Between keys.
        case ground
        /// After Esc.
        case escape
        /// After `Esc [`.
        case bracket
        /// Inside an SGR report, after `Esc [ <`: the parameters so far and the digits of the current one.
        case sgr(parameters: [Int], current: Int?)
        /// Inside a legacy report, after `Esc [ M`: the coded bytes so far.
        case legacy(codes: [UInt32])
    }

    /// The most units a report may take (`Esc [ <`, three parameters of up to five digits, two `;` and the
    /// final letter); a longer run is not a report.
    public static let maximumReportLength = 3 + 3 * 5 + 2 + 1

    private var phase = Phase.ground
    /// The units read since Esc, given back as keys when they turn out not to be a report.
    private var pending: [WideInput] = []

    /// A decoder between keys.
    public init() {}

    /// Whether part of a possible report is held back (``flush()`` gives it back as keys).
    public var isHoldingInput: Bool { !pending.isEmpty }

    /// The keys that `input` completes: none while a report may be under way, one for a key or a report, or
    /// the held-back units as keys when the report turned out not to be one.
    public mutating func feed(_ input: WideInput) -> [Key] {
        switch (phase, input) {
        case (.ground, .character(27)):
            phase = .escape
            pending = [input]
            return []
        case (.ground, _):
            return KeyDecoder.decode(input).map { [$0] } ?? []
        case (.escape, .character(0x5B)):
            return hold(input, in: .bracket)
        case (.bracket, .character(0x3C)):
            return hold(input, in: .sgr(parameters: [], current: nil))
        case (.bracket, .character(0x4D)):
            return hold(input, in: .legacy(codes: []))
        case (.sgr(let parameters, let current), .character(let code)):
            return sgr(parameters: parameters, current: current, code: code, input: input)
        case (.legacy(let codes), .character(let code)):
            guard codes.count == 2 else { return hold(input, in: .legacy(codes: codes + [code])) }
            phase = .ground
            pending = []
            return KeyDecoder.legacyReport(codes + [code]).map { [.mouse($0)] } ?? []
        case (.escape, _), (.bracket, _), (.sgr, _), (.legacy, _):
            return giveBack() + feed(input)
        }
    }

    /// Gives back what is held as keys, one unit at a time: call it when no more input is waiting, so a lone
    /// Esc is a key and not the start of a report.
    public mutating func flush() -> [Key] {
        giveBack()
    }

    private mutating func hold(_ input: WideInput, in next: Phase) -> [Key] {
        phase = next
        pending.append(input)
        return []
    }

    private mutating func giveBack() -> [Key] {
        let held = pending
        phase = .ground
        pending = []
        return held.compactMap { KeyDecoder.decode($0) }
    }

    /// One unit of an SGR report: a digit, the `;` between parameters, or the final `M`/`m`.
    private mutating func sgr(parameters: [Int], current: Int?, code: UInt32, input: WideInput) -> [Key] {
        switch code {
        case 0x30...0x39:
            // Five digits at most, leading zeros included, so a report never outgrows its bound.
            let value = (current ?? 0) * 10 + Int(code - 0x30)
            guard value <= 99_999, pending.count < KeyDecoder.maximumReportLength - 1 else {
                return giveBack() + feed(input)
            }
            return hold(input, in: .sgr(parameters: parameters, current: value))
        case 0x3B:
            guard let current, parameters.count < 2, pending.count < KeyDecoder.maximumReportLength - 1 else {
                return giveBack() + feed(input)
            }
            return hold(input, in: .sgr(parameters: parameters + [current], current: nil))
        case 0x4D, 0x6D:
            guard let current, parameters.count == 2 else { return giveBack() + feed(input) }
            phase = .ground
            pending = []
            let report = KeyDecoder.sgrReport(
                button: parameters[0], column: parameters[1], row: current, released: code == 0x6D)
            return report.map { [.mouse($0)] } ?? []
        default:
            return giveBack() + feed(input)
        }
    }

    /// The event an SGR report describes, nil for what the app does not use (motion, sideways wheel, extra
    /// buttons) or for a position outside the grid.
    static func sgrReport(button code: Int, column: Int, row: Int, released: Bool) -> MouseEvent? {
        guard let position = position(column: column, row: row) else { return nil }
        let low = code & 3
        let isMotion = code & 32 != 0
        let isWheel = code & 64 != 0
        guard code & 128 == 0, !isMotion else { return nil }
        if isWheel {
            guard !released else { return nil }
            return low == 0 ? MouseEvent(.wheelUp, at: position) : low == 1 ? MouseEvent(.wheelDown, at: position) : nil
        }
        guard low < 3 else { return nil }
        let button: MouseButton = low == 0 ? .left : low == 1 ? .middle : .right
        return MouseEvent(released ? .release(button) : .press(button), at: position)
    }

    /// The event a legacy report (three codes, each its value plus 32) describes; its release names no
    /// button, so it is dropped.
    static func legacyReport(_ codes: [UInt32]) -> MouseEvent? {
        guard codes.count == 3, codes.allSatisfy({ $0 >= 32 && $0 < 32 + 10_000 }) else { return nil }
        let button = Int(codes[0] - 32)
        guard button & 3 != 3 || button & 64 != 0 else { return nil }
        return sgrReport(button: button, column: Int(codes[1] - 32), row: Int(codes[2] - 32), released: false)
    }

    /// A 1-based column and row as a 0-based cell, nil outside `1...maximumCoordinate + 1`.
    private static func position(column: Int, row: Int) -> Point? {
        let range = 1...(MouseEvent.maximumCoordinate + 1)
        guard range.contains(column), range.contains(row) else { return nil }
        return Point(x: column - 1, y: row - 1)
    }

    /// The key for one unit of input, nil for input with no meaning here (NUL, a stray code, curses' own
    /// mouse code).
    public static func decode(_ input: WideInput) -> Key? {
        switch input {
        case .character(let code):
            return decodeCharacter(code)
        case .keyCode(let code):
            return decodeKeyCode(code)
        }
    }

    /// The key for a `get_wch` status and value (`OK` or `KEY_CODE_YES`; `ERR` means no key).
    public static func decode(status: Int32, value: UInt32) -> Key? {
        WideInput(status: status, value: value).flatMap { decode($0) }
    }

    private static func decodeCharacter(_ code: UInt32) -> Key? {
        switch code {
        case 0: return nil
        case 9: return .tab
        case 10, 13: return .enter
        case 8, 127: return .backspace
        case 27: return .escape
        case 1...26:
            // Ctrl-A is 1 … Ctrl-Z is 26: raw mode hands them over as bytes, Ctrl-C and Ctrl-Z included.
            return .control(Character(Unicode.Scalar(UInt8(0x60 + code))))
        case 28...31: return nil
        case 0x80...0x9F: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .character(Character(scalar))
        }
    }

    private static func decodeKeyCode(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_IC: return .insert
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_RESIZE: return .resize
        case (KEY_F0 + 1)...(KEY_F0 + 63): return .function(Int(code - KEY_F0))
        default: return nil
        }
    }
}
