/// A value of one screen's own type (its action, its effect or its state) tagged with the screen it belongs
/// to: the one generic way the app embeds a screen's values in its own (``AppAction/screen(_:)``,
/// ``AppEffect``, ``AppState``), in place of a case per screen and a hand-written unwrap for each (TCA's case
/// paths). ``embed(_:_:)`` wraps; ``value(_:)`` unwraps for the screen that owns it, nil for any other.
package struct ScreenValue: Hashable, Sendable, CustomStringConvertible {
    /// The screen the value belongs to.
    package let screen: Screen
    private let value: any Hashable & Sendable

    /// `value`, a value of `owner`'s own type.
    package static func embed<Owner: DashboardScreen, Value: Hashable & Sendable>(
        _ owner: Owner.Type, _ value: Value
    ) -> ScreenValue {
        ScreenValue(screen: Screen(owner), value: value)
    }

    private init(screen: Screen, value: any Hashable & Sendable) {
        self.screen = screen
        self.value = value
    }

    /// The value as `Value` when it belongs to `owner`; nil for another screen's.
    package func value<Owner: DashboardScreen, Value>(_ owner: Owner.Type, as type: Value.Type = Value.self) -> Value? {
        guard screen.type == ObjectIdentifier(owner) else { return nil }
        return value as? Value
    }

    /// The value, consuming the tagged one, so a state taken out to be changed in place is not shared.
    package consuming func take<Value>(as type: Value.Type) -> Value {
        guard let taken = value as? Value else {
            preconditionFailure("Internal inconsistency: \(screen) holds \(Swift.type(of: value)), not \(Value.self)")
        }
        return taken
    }

    package static func == (lhs: ScreenValue, rhs: ScreenValue) -> Bool {
        lhs.screen == rhs.screen && lhs.value.isEqual(to: rhs.value)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(screen)
        value.hash(into: &hasher)
    }

    /// The value's own description: `start`, `select(1)`.
    package var description: String { String(describing: value) }
}

extension Hashable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: Any) -> Bool { other as? Self == self }
}
