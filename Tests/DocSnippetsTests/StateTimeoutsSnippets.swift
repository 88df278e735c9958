// The code of the "State timeouts and the test clock" article; see GettingStartedSnippets.swift for the markers.

import StateMachineKit
import Testing

// snippet: session-model
enum Session: Hashable, Sendable {
    case signedOut
    case signedIn(user: String)
}

enum SessionEvent: Hashable, Sendable {
    case signIn(String)
    case activity
    case expire
    case signOut
}

let idleLimit = StateTimeout<SessionEvent>(after: .seconds(15 * 60), send: .expire)

func session(_ state: Session, _ event: SessionEvent) -> Transition<Session, SessionEvent> {
    switch (state, event) {
    case (.signedOut, .signIn(let user)): .to(.signedIn(user: user), timeout: idleLimit)
    // Re-entering begins a new visit, which cancels the old timer and arms a fresh one.
    case (.signedIn(let user), .activity): .to(.signedIn(user: user), timeout: idleLimit)
    case (.signedIn, .expire), (.signedIn, .signOut): .to(.signedOut)
    case (.signedIn, .signIn): .invalid("already signed in")
    case (.signedOut, .activity), (.signedOut, .expire), (.signedOut, .signOut): .ignore
    }
}
// end snippet

@Suite struct StateTimeoutsSnippets {
    @Test func theTimeoutFiresOnlyWithinItsVisit() async {
        // snippet: session-test-clock
        let clock = TestClock()
        let machine = StateMachine(
            initial: Session.signedOut, label: "session", clock: AnyClock(clock), transition: session)

        machine.send(.signIn("ada"))  // visit 2, expires at 15:00 on the test clock
        clock.advance(by: .seconds(10 * 60))
        machine.send(.activity)  // visit 3, expires at 25:00; the 15:00 timer is cancelled
        clock.advance(by: .seconds(10 * 60))  // 20:00: nothing fires
        let stillIn = machine.state  // .signedIn(user: "ada")

        clock.advance(by: .seconds(5 * 60))  // 25:00: the timer delivers .expire
        for await state in machine.states() where state == .signedOut { break }
        // end snippet
        #expect(stillIn == .signedIn(user: "ada"))
        #expect(machine.state == .signedOut)
        #expect(machine.history.map(\.event) == [.signIn("ada"), .activity, .expire])
    }

    @Test func waitingForTheTimerToSleep() async {
        let clock = TestClock()
        let machine = StateMachine(
            initial: Session.signedOut, label: "session", clock: AnyClock(clock), transition: session)
        machine.send(.signIn("ada"))
        // snippet: session-sleepers
        await clock.sleepers(atLeast: 1)  // the timer's task is now asleep on the clock
        let pending = clock.pendingSleeps  // 1
        machine.send(.signOut)  // leaving the visit cancels its timer
        let afterLeaving = clock.pendingSleeps  // 0
        // end snippet
        #expect(pending == 1)
        #expect(afterLeaving == 0)
    }
}
