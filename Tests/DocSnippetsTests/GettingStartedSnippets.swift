// The code of the "Getting started" article. Every block between `// snippet: NAME` and `// end snippet`
// appears verbatim in the article (ArticleSnippetTests checks it), so the article cannot drift from code
// that compiles and runs. The checks after each block pin the results its comments claim.

import StateMachineKit
import Testing

// snippet: door-model
enum Door: Hashable, Sendable, CaseIterable {
    case closed, opened, locked
}

enum DoorEvent: Hashable, Sendable, CaseIterable {
    case open, close, lock, unlock
}
// end snippet

// snippet: door-transition
func door(_ state: Door, _ event: DoorEvent) -> Transition<Door, DoorEvent> {
    switch (state, event) {
    case (.closed, .open): .to(.opened)
    case (.opened, .close): .to(.closed)
    case (.closed, .lock): .to(.locked)
    case (.locked, .unlock): .to(.closed)
    case (.opened, .lock): .invalid("cannot lock an open door")
    case (.closed, .close), (.opened, .open), (.locked, .lock): .stay
    case (.closed, .unlock), (.opened, .unlock), (.locked, .open), (.locked, .close): .ignore
    }
}
// end snippet

@Suite struct GettingStartedSnippets {
    @Test func theTransitionFunctionIsAPlainFunction() {
        // snippet: door-pure
        let decision = door(.closed, .lock)  // .to(.locked, timeout: nil)
        let word = decision.verdict.word  // "to"
        let next = decision.target(from: .closed)  // .locked
        // end snippet
        #expect(decision == .to(.locked, timeout: nil))
        #expect(word == "to")
        #expect(next == .locked)
    }

    @Test func aMachineAppliesEventsAndRecordsThem() {
        // snippet: door-machine
        let machine = StateMachine(initial: Door.closed, label: "front door", transition: door)

        machine.send(.open)  // .moved: a new visit of .opened begins
        machine.send(.open)  // .stayed: accepted, nothing changes
        machine.send(.lock)  // .invalid("cannot lock an open door"), reported at error level
        machine.send(.close)  // .moved
        machine.send(.unlock)  // .ignored: means nothing in .closed

        let state = machine.state  // .closed
        let visit = machine.visit  // 3: the initial visit, then one per .to
        // end snippet
        #expect(state == .closed)
        #expect(visit == 3)
        #expect(
            machine.history.map(\.outcome) == [.moved, .stayed, .invalid("cannot lock an open door"), .moved, .ignored])
    }

    @Test func historyPrintsOneLinePerEvent() {
        let machine = StateMachine(initial: Door.closed, label: "front door", transition: door)
        for event in [DoorEvent.open, .open, .lock, .close, .unlock] { machine.send(event) }
        // snippet: door-history
        for record in machine.history {
            print(record)
        }
        // #1 visit 1: closed + open -> opened (moved)
        // #2 visit 2: opened + open -> opened (stayed)
        // #3 visit 2: opened + lock -> opened (invalid("cannot lock an open door"))
        // #4 visit 2: opened + close -> closed (moved)
        // #5 visit 3: closed + unlock -> closed (ignored)
        // end snippet
        #expect(
            machine.history.map(\.description) == [
                "#1 visit 1: closed + open -> opened (moved)",
                "#2 visit 2: opened + open -> opened (stayed)",
                "#3 visit 2: opened + lock -> opened (invalid(\"cannot lock an open door\"))",
                "#4 visit 2: opened + close -> closed (moved)",
                "#5 visit 3: closed + unlock -> closed (ignored)",
            ])
    }

    @Test func reportsGoToAReporter() {
        let lines = Lines()
        // snippet: door-reporter
        let reporter = Reporter(minimumLevel: .notice) { report in
            lines.append(report.line)
        }
        let machine = StateMachine(initial: Door.opened, label: "front door", reporter: reporter, transition: door)
        machine.send(.lock)
        // error front door statemachine.invalid: lock is invalid in opened: cannot lock an open door
        //     [event=lock reason=cannot lock an open door state=opened visit=1]
        // end snippet
        #expect(
            lines.all == [
                "error front door statemachine.invalid: lock is invalid in opened: cannot lock an open door"
                    + " [event=lock reason=cannot lock an open door state=opened visit=1]"
            ])
    }

    @Test func statesStreamsTheNewestState() async {
        // snippet: door-states
        let machine = StateMachine(initial: Door.closed, label: "front door", transition: door)
        let watcher = Task {
            var seen: [Door] = []
            for await state in machine.states() {
                seen.append(state)
                if state == .locked { break }
            }
            return seen
        }
        machine.send(.lock)
        let seen = await watcher.value  // ends with .locked; a slow reader may skip states between
        // end snippet
        #expect(seen.last == .locked)
        #expect(seen.allSatisfy { [.closed, .locked].contains($0) })
    }

    @Test func theFeedHandsOutEveryRecord() async {
        // snippet: door-feed
        let machine = StateMachine(initial: Door.closed, label: "front door", historyLimit: 2, transition: door)
        machine.send(.open)
        machine.send(.lock)  // invalid: changes nothing, still a record
        machine.send(.close)
        var feed = machine.records().makeAsyncIterator()
        let batch = await feed.next()  // every record so far, in one batch
        let outcomes = batch?.records.map(\.outcome)  // [.invalid("cannot lock an open door"), .moved]
        let missed = batch?.missed  // 1: the open fell out of a history of two before it was read
        machine.send(.close)  // a stay wakes the reader too
        let next = await feed.next()?.records.map(\.outcome)  // [.stayed]
        // end snippet
        #expect(outcomes == [.invalid("cannot lock an open door"), .moved])
        #expect(missed == 1)
        #expect(batch?.state == .closed)
        #expect(next == [.stayed])
    }
}
