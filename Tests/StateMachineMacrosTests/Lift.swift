import StateMachineMacros

/// A lift written as a `@StateMachine` table: calls while it moves are postponed until it arrives.
@StateMachine
enum Lift {
    enum State: Hashable, Sendable { case idle, moving }
    enum Event: Hashable, Sendable { case call, arrive }

    static let table = Table(
        initial: .idle,
        rows: [
            .on(.idle, .call, to: .moving),
            .on(.idle, .arrive, .ignore),
            .on(.moving, .call, .postpone),
            .on(.moving, .arrive, to: .idle),
        ])
}
