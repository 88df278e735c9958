/// A mouse button a report names.
public enum MouseButton: String, Hashable, Sendable, CaseIterable {
    /// The primary button.
    case left
    /// The wheel pressed as a button.
    case middle
    /// The secondary button.
    case right
}

/// What the mouse did.
public enum MouseAction: Hashable, Sendable {
    /// A button went down.
    case press(MouseButton)
    /// A button came up.
    case release(MouseButton)
    /// The wheel turned away from the user (scroll up).
    case wheelUp
    /// The wheel turned towards the user (scroll down).
    case wheelDown
}

/// A mouse report: what happened and at which cell, counted from 0 at the top left like ``Point``.
public struct MouseEvent: Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public var action: MouseAction
    /// The cell under the pointer.
    public var position: Point

    /// The largest column or row a report may name: a bound far beyond any real terminal.
    public static let maximumCoordinate = 9_999

    /// Creates a report.
    public init(_ action: MouseAction, at position: Point) {
        self.action = action
        self.position = position
    }

    /// How the report is written in traces and demo scripts: `press-left@12,3`, `release-right@0,0`,
    /// `wheelup@5,10`, `wheeldown@5,10` (column, then row).
    public var description: String {
        let action =
            switch action {
            case .press(let button): "press-\(button.rawValue)"
            case .release(let button): "release-\(button.rawValue)"
            case .wheelUp: "wheelup"
            case .wheelDown: "wheeldown"
            }
        return "\(action)@\(position.x),\(position.y)"
    }

    /// Parses the written form of ``description``; nil when it names no report or a coordinate is out of
    /// `0...maximumCoordinate`.
    public init?(name: String) {
        let parts = name.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let coordinates = parts[1].split(separator: ",", omittingEmptySubsequences: false)
        guard coordinates.count == 2,
            coordinates.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let x = Int(coordinates[0]), let y = Int(coordinates[1])
        else { return nil }
        let word = parts[0]
        let action: MouseAction
        if word == "wheelup" {
            action = .wheelUp
        } else if word == "wheeldown" {
            action = .wheelDown
        } else if word.hasPrefix("press-"), let button = MouseButton(rawValue: String(word.dropFirst(6))) {
            action = .press(button)
        } else if word.hasPrefix("release-"), let button = MouseButton(rawValue: String(word.dropFirst(8))) {
            action = .release(button)
        } else {
            return nil
        }
        self.init(action, at: Point(x: x, y: y))
    }
}
