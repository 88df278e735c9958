import Testing

/// `@StateMachine` expanded by the harness: the whole generated source, and every diagnostic with its
/// line, column, notes and fix-its.
@Suite struct StateMachineExpansionTests {
    /// The declaration's members: the source as written, and kept as they are at the head of the expansion.
    static let doorMembers = """
            public enum State: Hashable, Sendable {
                case closed
                case opening(percent: Int)
                case open
            }
            public enum Event: Hashable, Sendable {
                case push, step(Int), shut
            }

            public static let table = Table(initial: .closed, unlisted: .ignore, rows: [
                .on(.closed, .push, to: .opening(percent: 0), after: .seconds(3), send: .shut),
                .on(.opening, .step, when: { state, event in
                    if case .opening(let percent) = state, case .step(let more) = event { percent + more < 100 } else { false }
                }) { state, event in
                    guard case .opening(let percent) = state, case .step(let more) = event else { return .stay }
                    return .update(.opening(percent: percent + more))
                },
                .on(.opening, .step, to: .open),
                .on(.opening, .shut, to: .closed),
                .on(.open, .shut, to: .closed),
                .on(.open, .push, .invalid("already open")),
            ])
        """

    static let doorSource = """
        @StateMachine
        public enum Door {
        \(doorMembers)
        }
        """

    @Test func tableExpandsToCaseEnumsOneSwitchAndTheDiagram() {
        let expansion = MacroExpansion(Self.doorSource)
        #expect(expansion.reports == [])
        #expect(expansion.expandedSource == Self.doorExpansion)
    }

    static let doorExpansion = """

        public enum Door {
        \(doorMembers)

            /// The state cases, without their payloads.
            public enum StateCase: String, Hashable, Sendable, CaseIterable {
                case closed
                case opening
                case open
            }

            /// The event cases, without their payloads.
            public enum EventCase: String, Hashable, Sendable, CaseIterable {
                case push
                case step
                case shut
            }

            /// The case of `value`, without its payload.
            public static func stateCase(_ value: State) -> StateCase {
                switch value {
                case .closed:
                    .closed
                case .opening:
                    .opening
                case .open:
                    .open
                }
            }

            /// The case of `value`, without its payload.
            public static func eventCase(_ value: Event) -> EventCase {
                switch value {
                case .push:
                    .push
                case .step:
                    .step
                case .shut:
                    .shut
                }
            }

            /// A row of this machine's table.
            public typealias Row = TransitionRow<State, Event, StateCase, EventCase>

            /// This machine's table.
            public typealias Table = TransitionTable<State, Event, StateCase, EventCase>

            /// The table as one `switch`: rows of a pair are tried in table order, guards first.
            public static func transition(_ state: State, _ event: Event) -> StateMachineKit.Transition<State, Event> {
                switch (state, event) {
                case (.closed, .push):
                    return .to(.opening(percent: 0), timeout: StateMachineKit.StateTimeout(after: .seconds(3), send: .shut))
                case (.opening, .step):
                    let admits1: (State, Event) -> Bool = { state, event in
                        if case .opening(let percent) = state, case .step(let more) = event {
                            percent + more < 100
                        } else {
                            false
                        }
                    }
                    if admits1(state, event) {
                        let decide1: (State, Event) -> StateMachineKit.Transition<State, Event> = { state, event in
                            guard case .opening(let percent) = state, case .step(let more) = event else {
                                return .stay
                            }
                            return .update(.opening(percent: percent + more))
                        }
                        return decide1(state, event)
                    }
                    return .to(.open)
                case (.opening, .shut):
                    return .to(.closed)
                case (.open, .shut):
                    return .to(.closed)
                case (.open, .push):
                    return .invalid("already open")
                default:
                    return .ignore
                }
            }

            /// The table as a Mermaid state diagram (moves only; stay, ignore, invalid and postpone rows are left out).
            public static let mermaid: String = \"""
                stateDiagram-v2
                    [*] --> closed
                    closed --> opening: push
                    opening --> opening: step
                    opening --> open: step
                    opening --> closed: shut
                    open --> closed: shut
                \"""
        }
        """
}
