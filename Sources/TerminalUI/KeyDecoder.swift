import CNCurses

/// What one `get_wch` call returned: a character (status `OK`) or a key code (status `KEY_CODE_YES`).
public enum WideInput: Hashable, Sendable {
    /// A character code, including control bytes (raw mode delivers Ctrl-C as 3).
    case character(UInt32)
    /// A curses key code (`KEY_UP`, `KEY_RESIZE`, `KEY_F0 + n` …).
    case keyCode(Int32)
}

/// Turns curses input into ``Key``s: a pure table, so every mapping is tested without a terminal.
public enum KeyDecoder {
    /// The key for one unit of input, nil for input with no meaning here (a mouse event, NUL, a stray code).
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
        switch status {
        case OK: decode(.character(value))
        case KEY_CODE_YES: decode(.keyCode(Int32(bitPattern: value)))
        default: nil
        }
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
