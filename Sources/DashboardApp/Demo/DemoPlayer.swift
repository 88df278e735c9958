import Foundation
import StateMachineKit
import Support
import TerminalUI

/// Plays a demo script on the dashboard: headless (every frame printed as text after a
/// `--- frame N: <step> ---` line) or on a terminal a person watches (`q` stops it), optionally recording an
/// asciicast. Both run the dashboard's own ``TerminalUI/Store`` loop — the same reducer, subscriptions and
/// effect runner as the live app — on a ``DemoSession``, with a ``DemoTerminal`` typing the script.
package enum DemoPlayer {
    /// What a play ended with, and its exit status.
    package enum Ending: Hashable, Sendable {
        /// The script ran to its end (or the app quit at a `q` step): exit 0.
        case completed
        /// The watcher pressed `q`: exit 0.
        case stopped
        /// An `expect` failed: exit 1.
        case failed(DemoScript.Step, screen: String)
        /// The simulated world did not settle after this step within ``DemoTerminal`` 's limit: exit 1.
        case stalled(after: String)

        /// The exit status.
        package var status: Int32 {
            switch self {
            case .completed, .stopped: 0
            case .failed, .stalled: 1
            }
        }
    }

    /// The frame header line, `--- frame 3: sleep 300ms ---`.
    package static func header(frame: Int, step: String) -> String {
        "--- frame \(frame): \(step) ---"
    }

    /// Whether `pattern` matches somewhere in `text` (false for a pattern that does not compile), in time
    /// linear in the text (``ScreenPattern``).
    package static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let compiled = try? ScreenPattern(pattern) else { return false }
        return compiled.matches(text)
    }

    /// Plays `script` without a terminal, writing every frame to `output` and recording into `cast`.
    package static func headless(
        _ script: DemoScript, size: Size, session: DemoSession = DemoSession(), cast: inout Asciicast?,
        output: (String) -> Void
    ) async -> Ending {
        let played = await play(script, on: TerminalBox(HeadlessTerminal(size: size)), session: session, paced: false)
        for frame in played.frames { output(frame.text) }
        cast?.events += played.frames.map(\.event)
        return played.ending
    }

    /// Plays `script` on `terminal` at the pace its sleeps give, redrawing as simulated time passes; `q`
    /// stops it. Frames are recorded into `cast` with the demo's time.
    package static func interactive(
        _ script: DemoScript, on terminal: some Terminal, session: DemoSession = DemoSession(),
        cast: inout Asciicast?
    ) async -> Ending {
        let played = await play(script, on: TerminalBox(terminal), session: session, paced: true)
        cast?.events += played.frames.map(\.event)
        return played.ending
    }

    /// One frame of a play: as text with its header, and as an asciicast event.
    struct Frame: Sendable {
        var text: String
        var event: Asciicast.Event
    }

    /// Runs the store loop on a thread of its own (it blocks while it waits, which must not happen on a
    /// Swift concurrency thread) and hands back the frames and how the play ended.
    static func play<Base: Terminal>(
        _ script: DemoScript, on box: TerminalBox<Base>, session: DemoSession, paced: Bool
    ) async -> (ending: Ending, frames: [Frame]) {
        let result = Locked<(ending: Ending, frames: [Frame])?>(nil)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                result.withLock { $0 = run(script, on: box.terminal, session: session, paced: paced) }
                done.resume()
            }
            thread.name = "statetui demo"
            thread.start()
        }
        return result.withLock { $0 } ?? (.completed, [])
    }

    /// The play itself, on the calling thread.
    private static func run<Base: Terminal>(
        _ script: DemoScript, on base: Base, session: DemoSession, paced: Bool
    ) -> (ending: Ending, frames: [Frame]) {
        let store = Store(app: session.app)
        let terminal = DemoTerminal(base: base, session: session, script: script, paced: paced)
        var frames: [Frame] = []
        func record(_ step: String, _ canvas: Canvas) {
            frames.append(
                Frame(
                    text: header(frame: frames.count, step: step) + "\n" + canvas.text,
                    event: Asciicast.Event(time: seconds(terminal.time), data: ANSIFrame.render(canvas))))
        }
        terminal.store = DemoTerminal.Store(isSettled: {
            store.runningEffects == 0 && !store.hasQueuedActions && session.isSettled(store.state)
        })
        terminal.frameDue = { step in record(step, terminal.canvas ?? store.app.view(store.state, base.size)) }
        session.scheduler.whenScheduled { [wakeup = base.wakeup] in wakeup.wake() }
        let final = store.run(on: terminal, pacer: FramePacer(minimumInterval: .zero))
        session.scheduler.whenScheduled(nil)
        session.environment.stop()
        if let ending = terminal.ending { return (ending, frames) }
        // The app quit at a step of the script (its `q`): that step's frame shows where it stopped.
        if let step = terminal.pendingStep { record(step.text, store.app.view(final, base.size)) }
        return (.completed, frames)
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}

/// Carries a terminal to the thread that plays on it; only that thread uses it from then on.
struct TerminalBox<Base: Terminal>: @unchecked Sendable {
    let terminal: Base

    init(_ terminal: Base) {
        self.terminal = terminal
    }
}
