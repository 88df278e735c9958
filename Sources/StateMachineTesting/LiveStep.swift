/// One step of a live model check: an event sent to the machine, or time passing on its test clock.
public enum LiveStep<Event> {
    /// Sends the event with `StateMachine.send(_:)`.
    case send(Event)
    /// Advances the `TestClock` by the duration, firing due state timeouts and waking sleeping work.
    case advance(Duration)
}

extension LiveStep: Sendable where Event: Sendable {}
extension LiveStep: Equatable where Event: Equatable {}
extension LiveStep: Hashable where Event: Hashable {}

extension LiveStep: CustomStringConvertible {
    /// Swift-literal form without the leading dot: `send(.start)`, `advance(.seconds(5))`.
    public var description: String {
        switch self {
        case .send(let event): "send(\(swiftCase(String(describing: event))))"
        case .advance(let duration): "advance(\(swiftLiteral(duration)))"
        }
    }
}

/// Canonical text is a case without its leading dot (`progress(percent: 20)`); Swift needs the dot.
func swiftCase(_ text: String) -> String {
    guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return text }
    return "." + text
}

/// A `Duration` as the coarsest exact Swift literal: `.seconds(5)`, `.milliseconds(1500)` …
func swiftLiteral(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let units: [(name: String, attosecondsPerUnit: Int64, perSecond: Int64)] = [
        ("seconds", 1_000_000_000_000_000_000, 1), ("milliseconds", 1_000_000_000_000_000, 1_000),
        ("microseconds", 1_000_000_000_000, 1_000_000), ("nanoseconds", 1_000_000_000, 1_000_000_000),
    ]
    for unit in units where attoseconds % unit.attosecondsPerUnit == 0 {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: unit.perSecond)
        if !overflow { return ".\(unit.name)(\(scaled + attoseconds / unit.attosecondsPerUnit))" }
    }
    return "Duration(secondsComponent: \(seconds), attosecondsComponent: \(attoseconds))"
}
