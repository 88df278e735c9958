import StateMachineKit
import Testing

/// A machine let go frees everything its core held (its state, its history, its postponed events), whether it was
/// stopped first or not: the core lives at an address of its own, destroyed by code the machine's initialiser made,
/// so that the unspecialised `deinit` asks the runtime for no generic type; nothing of it may be left behind.
@Suite struct MachineLetGoTests {
    /// A state holding an object, so that its release can be watched.
    struct Holding: Hashable, Sendable {
        let token: Token
        static func == (left: Holding, right: Holding) -> Bool { left.token === right.token }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(token)) }
    }

    final class Token: Sendable {}

    /// Weak references to the tokens of the first and the second state (the second in history and current), and
    /// of a postponed event's state, all held by a machine let go by `end` (stopping it first, or not).
    @Test(arguments: [true, false])
    func everythingTheCoreHeldIsFreed(stoppedFirst: Bool) {
        weak var first: Token?
        weak var second: Token?
        weak var postponed: Token?
        do {
            let (one, two, three) = (Token(), Token(), Token())
            (first, second, postponed) = (one, two, three)
            var machine: StateMachine<Holding, Holding>? = StateMachine(
                initial: Holding(token: one), label: "holder", historyLimit: 4
            ) { state, event in
                event.token === three ? .postpone : .to(event)
            }
            machine?.send(Holding(token: two))
            machine?.send(Holding(token: three))
            #expect(machine?.postponed == [Holding(token: three)])
            if stoppedFirst { machine?.stop() }
            machine = nil
        }
        #expect([first == nil, second == nil, postponed == nil] == [true, true, true])
    }
}
