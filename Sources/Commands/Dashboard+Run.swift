import DashboardApp
import StateMachineInspector
import TerminalUI

extension Dashboard {
    /// Opens the terminal, runs the dashboard until `q` or Ctrl-C, restores the terminal and returns the
    /// exit status: 0 after `q`, 130 after Ctrl-C, 128 + the signal after a copy dashboard stopped for SIGTERM,
    /// SIGHUP or SIGINT (``NCursesTerminal/stopSignal``), 2 when the terminal, the trace file or
    /// `STATE_MACHINE_SEED` cannot be used, 1 when writing the trace failed (the one-line reason goes to
    /// `writeError`).
    ///
    /// `transfers` replaces the simulated transfers (`statetui copy` passes its real copies);
    /// `prepare` runs once the terminal is open, before the first frame (`copy --start` starts them);
    /// with `confirmsQuit`, `q` asks before stopping transfers under way; `mode` is the demo dashboard or
    /// `statetui copy`'s.
    package static func run(
        _ options: DashboardOptions, environment variables: [String: String], writeError: (String) -> Void,
        transfers: TransfersRuntime? = nil, confirmsQuit: Bool = false, mode: DashboardMode = .demo,
        prepare: (DashboardEnvironment) -> Void = { _ in }
    ) -> Int32 {
        let seed: UInt64?
        do {
            seed = try options.resolvedSeed(environment: variables)
        } catch {
            writeError("statetui: \(error)\n")
            return 2
        }
        var trace: FrameTrace?
        if let path = options.tracePath {
            do {
                trace = try FrameTrace(path: path)
            } catch {
                writeError("statetui: \(error)\n")
                return 2
            }
        }
        var inspector: Inspector?
        if options.inspectable {
            do {
                inspector = try Inspection.start(name: "statetui", environment: variables)
            } catch {
                writeError("statetui: cannot be inspectable: \(error)\n")
                return 2
            }
        }
        defer { inspector?.stop() }
        let terminal: NCursesTerminal
        do {
            // A copy stops its own way on SIGTERM, SIGHUP (its terminal closed) and SIGINT, as after Ctrl-C:
            // partials kept for the next run, the destination's finished directories given their modes.
            terminal = try NCursesTerminal(
                environment: variables, mouse: options.mouse, stopsOnSignals: mode != .demo)
        } catch {
            writeError("statetui: \(error)\n")
            return 2
        }
        var generator = SystemRandomNumberGenerator()
        var environment = DashboardEnvironment.live(
            seed: seed ?? generator.next(), replacing: transfers.map { [.transfers: $0] } ?? [:])
        environment.confirmsQuit = confirmsQuit
        environment.settings = options.settings(
            depth: ColorDepth.detect(colors: terminal.colorCount, environment: variables))
        environment.mode = mode
        if let inspector { environment.register(in: inspector) }
        prepare(environment)
        let final = app(environment).run(on: terminal, trace: trace)
        environment.stop()
        terminal.restore()
        if let failure = trace?.close() {
            writeError("statetui: \(failure)\n")
            return 1
        }
        if let signal = terminal.stopSignal { return 128 + signal }
        return final.exit?.status ?? 0
    }
}
