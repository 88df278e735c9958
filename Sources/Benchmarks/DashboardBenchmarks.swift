import Commands
import DashboardApp
import Foundation
import MachineDrivers
import SeedModels
import StateMachineKit
import Synchronization
import TerminalUI

/// Issue 5's figures for the real dashboard: a full 200×60 frame of ``AppView``, key-to-screen latency
/// through the dashboard's own store, a flood of transfer-machine changes against the 60 fps cap with
/// memory, and, from the release `statetui` binary run in tmux, the first frame, idle CPU over 10 s and
/// resident memory. Prints a table and one JSON line.
func runDashboardBenchmarks() async {
    let (render, renderCPU) = measureDashboardRender(iterations: 2000)
    let latency = measureDashboardKeyLatency(keys: 2000)
    let flood = measureFloodAlone(seconds: 2)
    let process = measureDashboardProcess(idleSeconds: 10)
    let version = measureVersionPeak(runs: 7)
    var rows: [(String, String, String)] = [
        ("AppView 200x60 (view + diff)", microseconds(render.median), microseconds(render.p90) + " p90"),
        ("AppView 200x60, thread CPU time", microseconds(renderCPU.median), microseconds(renderCPU.p90) + " p90"),
        ("key to screen (in process)", microseconds(latency.median), microseconds(latency.p90) + " p90"),
        ("flood: machine changes", "\(flood.sent)", "\(flood.sent / flood.seconds)/s"),
        (
            "flood: frames drawn", "\(flood.frames)",
            String(format: "%.1f fps", Double(flood.frames) / Double(flood.seconds))
        ),
        (
            "flood: peak RSS (process of its own)", "\(flood.peakKB) KB",
            "target ≤ 25600 KB; \(flood.residentStartKB) KB before, \(flood.residentEndKB) KB at end"
        ),
    ]
    switch process {
    case .measured(let figures):
        rows += [
            (
                "first frame after exec", milliseconds(figures.firstFrame),
                "target ≤ 15 ms; median of \(figures.launches) launches, "
                    + "\(milliseconds(figures.firstFrameRange.low))–\(milliseconds(figures.firstFrameRange.high)); "
                    + "exec to frame=1 in the --trace file"
            ),
            (
                "first frame after tmux new-session", milliseconds(figures.firstFrameAfterTmux),
                "median; includes tmux's server and pane start-up"
            ),
            ("idle CPU over \(figures.idleSeconds) s", String(format: "%.3f s", figures.idleCPUSeconds), "utime+stime"),
            ("resident memory (idle)", "\(figures.residentKB) KB", "target ≤ 15360 KB; VmRSS"),
        ]
    case .skipped(let reason):
        rows.append(("process figures", "skipped", reason))
    }
    if let version {
        rows.append(
            (
                "statetui --version, peak RSS", "\(version.median) KB",
                "target ≤ 12288 KB; \(version.low)–\(version.high) KB over 7 runs"
            ))
    }
    printFigureTable(group: "dashboard", rows: rows)
    print(
        dashboardJSON(
            render: (render, renderCPU), latency: latency, flood: flood, process: process, version: version?.median))
}

/// The dashboard group's JSON line: render times (wall and thread CPU), key latency, the flood, the process
/// figures when measured, and `statetui --version`'s peak resident size when measured.
private func dashboardJSON(
    render: (wall: Percentiles, cpu: Percentiles), latency: Percentiles, flood: FloodFigures,
    process: ProcessMeasurement, version: Int?
) -> String {
    var json = """
        {"group":"dashboard","render_200x60_median_us":\(render.wall.median.microsecondsValue),\
        "render_200x60_p90_us":\(render.wall.p90.microsecondsValue),\
        "render_200x60_cpu_median_us":\(render.cpu.median.microsecondsValue),\
        "key_to_screen_median_us":\(latency.median.microsecondsValue),\
        "key_to_screen_p90_us":\(latency.p90.microsecondsValue),\
        "flood_changes":\(flood.sent),"flood_frames":\(flood.frames),"flood_seconds":\(flood.seconds),\
        "flood_rss_start_kb":\(flood.residentStartKB),"flood_rss_end_kb":\(flood.residentEndKB),\
        "flood_peak_rss_kb":\(flood.peakKB)
        """
    if case .measured(let figures) = process {
        json += """
            ,"first_frame_ms":\(figures.firstFrame.microsecondsValue / 1000),\
            "first_frame_after_tmux_ms":\(figures.firstFrameAfterTmux.microsecondsValue / 1000),\
            "idle_cpu_seconds":\(figures.idleCPUSeconds),"idle_seconds":\(figures.idleSeconds),\
            "rss_kb":\(figures.residentKB)
            """
    }
    if let version { json += ",\"version_peak_rss_kb\":\(version)" }
    return json + "}"
}

/// `duration` as a figure in milliseconds (`12.3 ms`).
func milliseconds(_ duration: Duration) -> String {
    String(format: "%.1f ms", duration.microsecondsValue / 1000)
}

/// The flood (``measureMachineFlood(seconds:)``) in a process of its own, this executable run again with
/// `--flood-child`, so its resident memory is the dashboard's under the flood and nothing else this run
/// measured: its figures and its own peak resident size (`VmHWM`).
private func measureFloodAlone(seconds: Int) -> FloodFigures {
    let failed = FloodFigures(sent: 0, frames: 0, seconds: seconds, residentStartKB: 0, residentEndKB: 0, peakKB: 0)
    guard let output = shell(["/proc/self/exe", "--flood-child", "\(seconds)"]) else { return failed }
    let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    guard fields.count == 5 else { return failed }
    return FloodFigures(
        sent: fields[0], frames: fields[1], seconds: seconds, residentStartKB: fields[2], residentEndKB: fields[3],
        peakKB: fields[4])
}

/// The child's side of ``measureFloodAlone(seconds:)``: runs the flood and prints its figures as one line of
/// numbers (changes, frames, resident KB before and at the end, peak resident KB).
func runFloodChild(seconds: Int) async {
    let flood = await measureMachineFlood(seconds: seconds)
    // VmHWM lags the resident size by the counters threads have not folded in yet; never below the end.
    let peakKB = max((peakResidentBytes() ?? 0) / 1024, flood.residentEndKB)
    print("\(flood.sent) \(flood.frames) \(flood.residentStartKB) \(flood.residentEndKB) \(peakKB)")
}

/// A busy dashboard: 56 transfers in every phase, so a 200×60 frame is full of rows, bars and text: each with
/// its size, the running ones with two samples a second apart (so their rate and ETA show).
private func busyState(tick: Int) -> AppState {
    let rows = (0..<56).map { index -> TransferRow in
        let percent = (index + tick) % 101
        let model: TransferModel
        switch index % 5 {
        case 0: model = TransferModel(phase: .running(request: index + 1, percent: percent), lastRequest: index + 1)
        case 1: model = TransferModel(phase: .paused(request: index + 1, percent: percent), lastRequest: index + 1)
        case 2: model = TransferModel(phase: .completed(file: "transfer-\(index).bin"), lastRequest: index + 1)
        case 3:
            model = TransferModel(
                phase: .failed(message: "simulated failure"), lastRequest: index + 1, retainedPercent: percent)
        default: model = .initial
        }
        var row = TransferRow(
            name: "transfer-\(index).bin",
            driverStatus: TransferDriverStatus(totalBytes: Int64(index + 1) * 37_000_000),
            tally: RecordTally(lastSequence: index % 3, stale: index % 3))
        var earlier = model
        if case .running(let request, let percent) = model.phase {
            earlier.phase = .running(request: request, percent: max(0, percent - 7))
        }
        row.take(earlier, TransferSample(at: .seconds(10), visit: 1))
        row.take(model, TransferSample(at: .seconds(11), visit: 1))
        return row
    }
    return dashboardState(transfers: TransfersScreenState(rows: rows, selected: tick % rows.count))
}

/// The demo dashboard as it starts, on the Transfers screen.
private let startingState: AppState = {
    let environment = DashboardEnvironment.live(seed: 1)
    defer { environment.stop() }
    return environment.initialState
}()

/// The demo dashboard's first state with `transfers` on the Transfers screen.
func dashboardState(transfers: TransfersScreenState) -> AppState {
    var state = startingState
    state[TransfersFeature.self] = transfers
    return state
}

/// Building a 200×60 dashboard frame and diffing it with the previous one, every frame different.
private func measureDashboardRender(iterations: Int) -> (wall: Percentiles, cpu: Percentiles) {
    let size = Size(width: 200, height: 60)
    let states = (0..<64).map(busyState)
    return measureFrames(iterations: iterations) { tick in AppView.render(states[tick % states.count], size: size) }
}

/// The dashboard's own app (reducer, keymap, view, live environment) with no frame pacing, so every key's
/// frame is drawn at once.
private func measureDashboardKeyLatency(keys: Int) -> Percentiles {
    let environment = DashboardEnvironment.live(seed: 1)
    defer { environment.stop() }
    let app = Dashboard.app(environment)
    let terminal = KeyTimingTerminal(keys: keys) { $0 % 2 == 0 ? .character("j") : .character("k") }
    app.run(on: terminal, pacer: FramePacer(minimumInterval: .zero))
    return terminal.latency
}

/// Four transfer machines changed as fast as two threads can (start, progress 1…100, cancel, again: every
/// event is a change) for `seconds`, feeding the dashboard's reducer and view through `states()`
/// subscriptions, newest only, at the 60 fps cap.
private func measureMachineFlood(seconds: Int) async -> FloodFigures {
    let machines = (0..<4).map { TransferMachine(label: "flood-\($0)", historyLimit: 64) }
    let changes = Atomic<Int>(0)
    let (finished, finish) = AsyncStream<AppAction>.makeStream()
    let producers = 2
    let done = Atomic<Int>(0)
    for producer in 0..<producers {
        let thread = Thread {
            let clock = ContinuousClock()
            let end = clock.now + .seconds(seconds)
            var count = 0
            let owned = machines.enumerated().filter { $0.offset % producers == producer }.map(\.element)
            while clock.now < end {
                for machine in owned {
                    machine.send(.start)
                    let request = machine.model.lastRequest
                    for percent in 1...100 { machine.send(.progress(request: request, percent: percent)) }
                    machine.send(.cancel)
                    count += 102
                }
            }
            changes.add(count, ordering: .relaxed)
            if done.add(1, ordering: .relaxed).newValue == producers {
                finish.yield(.quit)
                finish.finish()
            }
        }
        thread.start()
    }
    let names = machines.map(\.engine.label)
    let initial = dashboardState(transfers: TransfersScreenState(rows: names.map { TransferRow(name: $0) }))
    let subscriptions =
        machines.enumerated().map { row, machine in
            Subscription(machine.engine.states()) {
                AppAction.screen(.embed(TransfersFeature.self, TransfersScreenAction.machineChanged(row: row, $0)))
            }
        } + [Subscription(finished) { $0 }]
    let app = App<AppState, AppAction, AppEffect>(
        initialState: initial, reduce: AppReducer.reduce, view: AppView.render, keymap: Keymap.action,
        isFinished: { $0.exit != nil }, subscriptions: subscriptions)
    let terminal = HeadlessTerminal(size: Size(width: 200, height: 60))
    let start = ownResidentKB()
    _ = await app.run(detachedOn: terminal)
    for machine in machines { machine.engine.stop() }
    return FloodFigures(
        sent: changes.load(ordering: .relaxed), frames: terminal.frameCount, seconds: seconds,
        residentStartKB: start, residentEndKB: ownResidentKB(), peakKB: (peakResidentBytes() ?? 0) / 1024)
}

private struct ProcessFigures {
    /// From statetui's exec to its first frame: the median of `launches`.
    var firstFrame: Duration
    /// The fastest and slowest of those.
    var firstFrameRange: (low: Duration, high: Duration)
    /// From `tmux new-session` to the first frame (tmux's server and pane start-up included): the median.
    var firstFrameAfterTmux: Duration
    var launches: Int
    var idleSeconds: Int
    var idleCPUSeconds: Double
    var residentKB: Int
}

private enum ProcessMeasurement {
    case measured(ProcessFigures)
    case skipped(String)
}

/// Runs a command found on `PATH`, returning its standard output (nil when it fails). With `capture` false
/// the output is discarded: a command that leaves a daemon behind (`tmux new-session`) would otherwise hold
/// the pipe open. Spawned directly with an empty signal mask and default dispositions: this code runs on a
/// concurrency thread that blocks most signals, and a child (the tmux server, the dashboard under it) would
/// inherit that mask.
@discardableResult
private func shell(_ arguments: [String], capture: Bool = true) -> String? {
    var descriptors: [Int32] = [-1, -1]
    guard !capture || pipe(&descriptors) == 0 else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if capture {
        posix_spawn_file_actions_adddup2(&actions, descriptors[1], 1)
        posix_spawn_file_actions_addclose(&actions, descriptors[0])
        posix_spawn_file_actions_addclose(&actions, descriptors[1])
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
    if capture { close(descriptors[1]) }
    guard spawned == 0 else {
        if capture { close(descriptors[0]) }
        return nil
    }
    var output = Data()
    if capture {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptors[0], $0.baseAddress, $0.count) }
            if count > 0 {
                output.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(descriptors[0])
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    // Exited normally with status 0: the low 7 bits (the terminating signal) and the exit code are zero.
    guard status == 0 else { return nil }
    return String(decoding: output, as: UTF8.self)
}

/// The release `statetui` next to this executable, launched `launches` times in a private tmux server at
/// 120×40: the median time from its exec to its first frame (bash stamps the wall-clock time just before it
/// execs statetui; frame=1 in the `--trace` file, polled every 0.5 ms, ends it) and from `tmux new-session` to
/// the first frame; then, on the last launch, CPU used while it sits idle for `idleSeconds`, and its resident
/// memory.
private func measureDashboardProcess(idleSeconds: Int, launches: Int = 5) -> ProcessMeasurement {
    guard let binary = releaseStatetui() else {
        return .skipped("no statetui next to the benchmarks (make release)")
    }
    guard shell(["tmux", "-V"]) != nil else { return .skipped("tmux is not installed") }
    guard shell(["bash", "-c", "exit 0"]) != nil else { return .skipped("bash is not installed") }
    var afterExec: [Duration] = []
    var afterTmux: [Duration] = []
    for launch in 1...launches {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "statetui-bench-\(getpid())-\(launch)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tmux = ["tmux", "-S", directory.appendingPathComponent("tmux.sock").path, "-f", "/dev/null"]
        defer { shell(tmux + ["kill-server"], capture: false) }
        let started = directory.appendingPathComponent("exec.time").path
        let trace = directory.appendingPathComponent("frames.log").path
        let clock = ContinuousClock()
        let launched = clock.now
        // bash's $EPOCHREALTIME (its decimal point is the locale's), written just before statetui replaces it.
        let stampThenExec = #"printf %s "$EPOCHREALTIME" > "$1"; shift; exec "$@""#
        guard
            shell(
                tmux + [
                    "new-session", "-d", "-x", "120", "-y", "40", "bash", "-c", stampThenExec, "bash", started, "env",
                    "TERM=screen", binary, "--seed", "1", "--trace", trace,
                ], capture: false) != nil
        else { return .skipped("tmux could not start the dashboard") }
        var seen: (tmux: Duration, wallClock: Double)?
        while clock.now - launched < .seconds(5) {
            if let text = try? String(contentsOfFile: trace, encoding: .utf8), text.hasPrefix("frame=1 ") {
                seen = (clock.now - launched, wallClockSeconds())
                break
            }
            usleep(500)
        }
        guard let seen else { return .skipped("no first frame within 5 s") }
        guard let stamp = try? String(contentsOfFile: started, encoding: .utf8),
            let execed = Double(stamp.replacingOccurrences(of: ",", with: "."))
        else { return .skipped("bash did not write the time of the exec") }
        afterExec.append(.microseconds(Int64((seen.wallClock - execed) * 1_000_000)))
        afterTmux.append(seen.tmux)
        guard launch == launches else {
            shell(tmux + ["send-keys", "q"], capture: false)
            continue
        }
        return measureIdleDashboard(tmux: tmux, idleSeconds: idleSeconds, afterExec: afterExec, afterTmux: afterTmux)
    }
    preconditionFailure("Internal inconsistency: the last of \(launches) launches returned no figures")
}

/// The dashboard of the last launch, in the tmux server `tmux` names: CPU used while it sits idle for
/// `idleSeconds` and its resident memory, then quit; with the first-frame times of every launch.
private func measureIdleDashboard(tmux: [String], idleSeconds: Int, afterExec: [Duration], afterTmux: [Duration])
    -> ProcessMeasurement
{
    guard let pidText = shell(tmux + ["display", "-p", "#{pane_pid}"]),
        let pid = Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines))
    else { return .skipped("no dashboard process id") }
    // Let start-up settle, then measure a quiet stretch.
    usleep(500_000)
    guard let before = cpuTicks(pid) else { return .skipped("cannot read /proc/\(pid)/stat") }
    sleep(UInt32(idleSeconds))
    guard let after = cpuTicks(pid) else { return .skipped("the dashboard exited while idle") }
    let resident = residentKB(of: pid)
    shell(tmux + ["send-keys", "q"], capture: false)
    let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    let afterExec = afterExec.sorted()
    let afterTmux = afterTmux.sorted()
    return .measured(
        ProcessFigures(
            firstFrame: afterExec[afterExec.count / 2],
            firstFrameRange: (afterExec[0], afterExec[afterExec.count - 1]),
            firstFrameAfterTmux: afterTmux[afterTmux.count / 2], launches: afterExec.count, idleSeconds: idleSeconds,
            idleCPUSeconds: Double(after - before) / ticksPerSecond, residentKB: resident))
}

/// The wall-clock time in seconds, as bash's `$EPOCHREALTIME` reads it.
private func wallClockSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The release `statetui` built next to this executable, if it is there.
private func releaseStatetui() -> String? {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("statetui").path
    return FileManager.default.isExecutableFile(atPath: binary) ? binary : nil
}

/// Peak resident memory of the release `statetui --version` over `runs` runs, in KB (its own `VmHWM`, read
/// while it writes its output): the cost of starting the program at all (the runtime and the libraries it
/// loads); nil without the binary.
private func measureVersionPeak(runs: Int) -> (median: Int, low: Int, high: Int)? {
    guard let binary = releaseStatetui() else { return nil }
    var peaks: [Int] = []
    for _ in 0..<runs {
        guard let peak = quickCommandPeakKB([binary, "--version"]) else { return nil }
        peaks.append(peak)
    }
    peaks.sort()
    return (peaks[peaks.count / 2], peaks[0], peaks[peaks.count - 1])
}

/// User plus system CPU ticks of process `pid` (fields 14 and 15 of /proc/PID/stat).
private func cpuTicks(_ pid: Int32) -> Int? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    // Fields after the command name, which is in parentheses and may contain spaces; state is field 3.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
    return user + system
}

/// VmRSS of process `pid` in KB.
private func residentKB(of pid: Int32) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}
