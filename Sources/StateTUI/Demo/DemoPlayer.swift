import TerminalUI

/// Plays a demo script on the dashboard: headless (every frame printed as text after a
/// `--- frame N: <step> ---` line) or on a terminal a person watches (`q` stops it), optionally recording an
/// asciicast. Both drive the same ``DemoRunner`` over the same ``DemoSession``.
public enum DemoPlayer {
    /// What a play ended with, and its exit status.
    public enum Ending: Hashable, Sendable {
        /// The script ran to its end (or the app quit at a `q` step): exit 0.
        case completed
        /// The watcher pressed `q`: exit 0.
        case stopped
        /// An `expect` failed: exit 1.
        case failed(DemoScript.Step, screen: String)

        /// The exit status.
        public var status: Int32 {
            switch self {
            case .completed, .stopped: 0
            case .failed: 1
            }
        }
    }

    /// The frame header line, `--- frame 3: sleep 300ms ---`.
    public static func header(frame: Int, step: String) -> String {
        "--- frame \(frame): \(step) ---"
    }

    /// Plays `script` without a terminal, writing every frame to `output` and recording into `cast`.
    public static func headless(
        _ script: DemoScript, size: Size, session: DemoSession = DemoSession(), cast: inout Asciicast?,
        output: (String) -> Void
    ) async -> Ending {
        let runner = DemoRunner(host: session.host, size: size)
        await runner.start()
        var time = Duration.zero
        var frame = 0
        func show(_ step: String) {
            let canvas = runner.canvas
            output(header(frame: frame, step: step) + "\n" + canvas.text)
            cast?.events.append(Asciicast.Event(time: seconds(time), data: ANSIFrame.render(canvas)))
            frame += 1
        }
        show("start")
        for step in script.steps {
            time += DemoRunner<AppState, AppAction, AppEffect>.duration(of: step)
            let result = await runner.perform(step)
            show(step.text)
            switch result {
            case .expectationFailed(let failed, let screen)?: return .failed(failed, screen: screen)
            case .quit?, .finished?, .stopped?: return .completed
            case nil: continue
            }
        }
        return .completed
    }

    /// Plays `script` on `terminal` at the pace its sleeps give, redrawing as simulated time passes; `q`
    /// stops it. Frames are recorded into `cast` with the demo's time.
    public static func interactive(
        _ script: DemoScript, on terminal: some Terminal, session: DemoSession = DemoSession(),
        cast: inout Asciicast?
    ) async -> Ending {
        let runner = DemoRunner(host: session.host, size: terminal.size)
        await runner.start()
        var time = Duration.zero
        func show() {
            let canvas = runner.canvas
            terminal.draw(canvas)
            cast?.events.append(Asciicast.Event(time: seconds(time), data: ANSIFrame.render(canvas)))
        }
        /// Waits `duration` of real time while watching for `q`; true when it was pressed.
        func watch(_ duration: Duration) -> Bool {
            let clock = ContinuousClock()
            let deadline = clock.now + duration
            while clock.now < deadline {
                if let key = terminal.readKey(timeout: deadline - clock.now), key == .character("q") || key == .controlC
                {
                    return true
                }
            }
            return false
        }
        show()
        for step in script.steps {
            switch step.kind {
            case .sleep(let duration):
                var remaining = duration
                while remaining > .zero {
                    let slice = min(remaining, DemoSession.slice * 2)
                    await runner.advance(by: slice)
                    time += slice
                    show()
                    if watch(slice) { return .stopped }
                    remaining -= slice
                }
            case .key, .expect:
                let result = await runner.perform(step)
                time += DemoRunner<AppState, AppAction, AppEffect>.duration(of: step)
                show()
                switch result {
                case .expectationFailed(let failed, let screen)?: return .failed(failed, screen: screen)
                case .quit?, .finished?, .stopped?: return .completed
                case nil: break
                }
                if case .key = step.kind, watch(DemoRunner<AppState, AppAction, AppEffect>.duration(of: step)) {
                    return .stopped
                }
            }
        }
        return watch(.seconds(1)) ? .stopped : .completed
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
