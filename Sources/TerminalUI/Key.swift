/// A key press (or terminal event) as the application sees it, whatever the terminal sent.
public enum Key: Hashable, Sendable, CustomStringConvertible {
    /// A printable character (including space).
    case character(Character)
    /// A control combination, the lowercase letter: `.control("c")` for Ctrl-C (byte 0x03). Tab, Enter,
    /// Backspace and Esc, which are control bytes too, get their own cases.
    case control(Character)
    /// ↑.
    case up
    /// ↓.
    case down
    /// ←.
    case left
    /// →.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Insert.
    case insert
    /// Delete (forward).
    case delete
    /// Tab.
    case tab
    /// Shift-Tab (back tab).
    case backTab
    /// Esc.
    case escape
    /// Enter or Return.
    case enter
    /// Backspace.
    case backspace
    /// A function key, F1 = `.function(1)`.
    case function(Int)
    /// The terminal changed size.
    case resize
    /// A mouse report (when the terminal reports the mouse): a click, a release or a turn of the wheel.
    case mouse(MouseEvent)

    /// Ctrl-C.
    public static let controlC = Key.control("c")
    /// Ctrl-Z.
    public static let controlZ = Key.control("z")

    /// How the key is written in help and traces: `q`, `space`, `ctrl-c`, `up`, `f5`.
    public var description: String {
        switch self {
        case .character(" "): "space"
        case .character(let character): String(character)
        case .control(let letter): "ctrl-\(letter)"
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .home: "home"
        case .end: "end"
        case .pageUp: "pageup"
        case .pageDown: "pagedown"
        case .insert: "insert"
        case .delete: "delete"
        case .tab: "tab"
        case .backTab: "shift-tab"
        case .escape: "esc"
        case .enter: "enter"
        case .backspace: "backspace"
        case .function(let number): "f\(number)"
        case .resize: "resize"
        case .mouse(let event): event.description
        }
    }

    /// Parses the written form of ``description`` (`q`, `space`, `ctrl-c`, `up`, `shift-tab`, `f5`, and mouse
    /// reports such as `press-left@12,3`); nil when it names no key. Demo scripts and tests use it.
    public init?(name: String) {
        let named: [String: Key] = [
            "space": .character(" "), "up": .up, "down": .down, "left": .left, "right": .right, "home": .home,
            "end": .end, "pageup": .pageUp, "pagedown": .pageDown, "insert": .insert, "delete": .delete,
            "tab": .tab, "shift-tab": .backTab, "esc": .escape, "enter": .enter, "backspace": .backspace,
            "resize": .resize,
        ]
        if let key = named[name] {
            self = key
        } else if name.count == 1, let character = name.first {
            self = .character(character)
        } else if name.hasPrefix("ctrl-"), name.count == 6, let letter = name.last, letter.isASCII, letter.isLetter {
            self = .control(Character(letter.lowercased()))
        } else if let event = MouseEvent(name: name) {
            self = .mouse(event)
        } else if name.hasPrefix("f"), let number = Int(name.dropFirst()), (1...63).contains(number) {
            self = .function(number)
        } else {
            return nil
        }
    }
}
