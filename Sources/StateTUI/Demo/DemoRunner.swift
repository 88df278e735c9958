import StateMachineKit
import TerminalUI

/// Plays a ``DemoScript`` against a ``DemoHost``: keys go through the app's keymap and reducer, effects are
/// run one after another and every action they send is reduced before the next step, and time passes only in
/// `sleep` steps. So the same script gives the same frames every time.
public final class DemoRunner<State: Equatable & Sendable, Action: Sendable, Effect: Sendable> {
    /// What became of a run.
    public enum Result: Hashable, Sendable {
        /// Every step ran.
        case finished
        /// The app finished (its quit key) before the script ended, at this step.
        case quit(after: DemoScript.Step)
        /// The person watching pressed `q`.
        case stopped
        /// An `expect` did not match; the screen at that moment.
        case expectationFailed(DemoScript.Step, screen: String)
    }

    /// The host being driven.
    public let host: DemoHost<State, Action, Effect>
    /// The screen size.
    public let size: Size
    /// The app's state now.
    public private(set) var state: State
    private let inbox = Inbox()

    private final class Inbox: Sendable {
        let actions = Locked<[Action]>([])
    }

    /// A runner at the app's initial state.
    public init(host: DemoHost<State, Action, Effect>, size: Size) {
        self.host = host
        self.size = size
        state = host.app.initialState
    }

    /// The current frame.
    public var canvas: Canvas { host.app.view(state, size) }

    /// Seconds of demo time a step takes in a recording (keys get a beat so a viewer can follow).
    public static func duration(of step: DemoScript.Step) -> Duration {
        switch step.kind {
        case .key: .milliseconds(250)
        case .sleep(let duration): duration
        case .expect: .zero
        }
    }

    /// Connects the host and reduces what that sends.
    public func start() async {
        let inbox = self.inbox
        host.connect(Send { action in inbox.actions.withLock { $0.append(action) } })
        await host.settle()
        await drain()
    }

    /// Runs one step (a sleep all at once); returns the failure of an `expect`, nil otherwise.
    public func perform(_ step: DemoScript.Step) async -> Result? {
        switch step.kind {
        case .key(let key):
            if let action = host.app.keymap(key, state) { await dispatch(action) }
        case .sleep(let duration):
            await advance(by: duration)
        case .expect(let pattern):
            let screen = canvas.text
            if !Self.matches(screen, pattern) { return .expectationFailed(step, screen: screen) }
        }
        await host.settle()
        await drain()
        return host.app.isFinished(state) ? .quit(after: step) : nil
    }

    /// Lets `duration` of simulated time pass and reduces what that sends.
    public func advance(by duration: Duration) async {
        await host.advance(duration)
        await host.settle()
        await drain()
    }

    /// Whether `pattern` matches somewhere in `text` (false for a pattern that does not compile), in time
    /// linear in the text (``ScreenPattern``).
    public static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let compiled = try? ScreenPattern(pattern) else { return false }
        return compiled.matches(text)
    }

    private func dispatch(_ action: Action) async {
        let effects = host.app.reduce(&state, action)
        let inbox = self.inbox
        let send = Send<Action> { action in inbox.actions.withLock { $0.append(action) } }
        for effect in effects { await host.app.runEffect(effect, send) }
        await drain()
    }

    private func drain() async {
        while let next = inbox.actions.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            await dispatch(next)
        }
    }
}
