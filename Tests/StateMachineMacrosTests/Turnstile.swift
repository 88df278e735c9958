import StateMachineMacros

/// A coin-operated turnstile written as a `@StateMachine` table: the runtime tests drive it.
@StateMachine
enum Turnstile {
    enum State: Hashable, Sendable { case locked, unlocked, broken }
    enum Event: Hashable, Sendable { case coin, push, kick, repair, relock }

    static let table = Table(
        initial: .locked, unlisted: .ignore,
        rows: [
            .on(.locked, .coin, to: .unlocked, after: .seconds(5), send: .relock),
            .on(.locked, .push, .ignore),
            .on(.locked, .kick, to: .broken),
            .on(.unlocked, .push, to: .locked),
            .on(.unlocked, .relock, to: .locked),
            .on(.unlocked, .coin, .invalid("already paid")),
            .on(.broken, .repair, to: .locked),
            .on(.broken, .coin, .stay),
        ])
}
