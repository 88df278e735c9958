/// Work the dashboard asks for: one screen's effect, embedded (``ScreenValue/embed(_:_:)``); the screen's
/// runtime performs it.
package struct AppEffect: Hashable, Sendable, CustomStringConvertible {
    /// The effect and the screen it belongs to.
    package let value: ScreenValue

    /// `value` as the app's effect.
    package init(_ value: ScreenValue) {
        self.value = value
    }

    /// The screen's effect: `send(row: 0, [start])`.
    package var description: String { "\(value.screen).\(value)" }
}
