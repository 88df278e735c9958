import Foundation
import StateMachineKit
import Testing

// The README's examples, verbatim: `readmeShowsThisFile` fails when either drifts from this file.
// --- README ten lines begin ---
enum Light: Hashable, Sendable { case off, on }
enum Flip: Hashable, Sendable { case flip }

func flipTheLight() -> (Outcome, Light) {
    let light = StateMachine<Light, Flip>(initial: .off, label: "light") { state, _ in
        state == .off ? .to(.on) : .to(.off)
    }
    return (light.send(.flip), light.state)  // (.moved, .on)
}
// --- README ten lines end ---

// --- README example begins ---
enum Door: Hashable, Sendable { case closed, open, locked }
enum DoorEvent: Hashable, Sendable { case push, pull, lock, unlock, autoClose }

/// The specification: pure, total, checked for exhaustiveness by the compiler.
@Sendable func door(_ state: Door, _ event: DoorEvent) -> Transition<Door, DoorEvent> {
    switch (state, event) {
    case (.closed, .push): .to(.open, timeout: StateTimeout(after: .seconds(30), send: .autoClose))
    case (.open, .pull), (.open, .autoClose): .to(.closed)
    case (.closed, .lock): .to(.locked)
    case (.locked, .unlock): .to(.closed)
    case (.locked, .push): .invalid("the door is locked")
    case (.open, _), (.closed, _), (.locked, _): .ignore
    }
}

/// Opens the door and lets its state timeout close it again; returns why the chime was cancelled.
func openAndWait(clock: TestClock) async -> CancellationCause? {
    let machine = StateMachine(
        initial: Door.closed, label: "door", clock: AnyClock(clock),
        reporter: .standardError(minimumLevel: .notice), transition: door)
    let (causes, cause) = AsyncStream<CancellationCause>.makeStream()
    machine.whileIn(.open, label: "chime") { sender in
        // Work belongs to the visit: cancelled when the door closes, and sender.send(_:)
        // returns .stale from then on.
        try? await clock.sleep(for: .seconds(3600))
        if let reason = sender.cancellationCause { cause.yield(reason) }
    }
    machine.send(.push)  // .moved: open, visit 2, closes itself after 30 s
    clock.advance(by: .seconds(30))  // a TestClock moves only when told to
    for await state in machine.states() where state == .closed { break }
    machine.stop()
    for await reason in causes { return reason }  // .stateExited
    return nil
}
// --- README example ends ---

@Suite struct ReadmeExampleTests {
    @Test func theExampleRunsAsDescribed() async {
        #expect(await openAndWait(clock: TestClock()) == .stateExited)
    }

    @Test func theExampleSpecification() {
        #expect(door(.closed, .push) == .to(.open, timeout: StateTimeout(after: .seconds(30), send: .autoClose)))
        #expect(door(.locked, .push) == .invalid("the door is locked"))
        #expect(door(.open, .lock) == .ignore)
    }

    @Test func theTenLinesFlipTheLight() {
        let (outcome, state) = flipTheLight()
        #expect(outcome == .moved)
        #expect(state == .on)
    }

    /// Each README example is the first ```swift block after its heading, minus the import, and
    /// appears in this file verbatim between its markers.
    @Test(arguments: [
        ("## The library in ten lines", "// --- README ten lines begin ---\n", "// --- README ten lines end ---"),
        ("## Using the engine", "// --- README example begins ---\n", "// --- README example ends ---"),
    ])
    func readmeShowsThisFile(heading: String, begins: String, ends: String) throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let section = try #require(readme.components(separatedBy: heading).dropFirst().first)
        let block = try #require(
            section.components(separatedBy: "```swift\n").dropFirst().first?
                .components(separatedBy: "```").first)
        #expect(block.hasPrefix("import StateMachineKit\n\n"))
        let example = String(block.dropFirst("import StateMachineKit\n\n".count))
        #expect(source.contains(begins + example + ends))
    }
}
