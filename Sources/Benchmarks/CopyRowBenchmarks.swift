import CMalloc
import DashboardApp
import FileTransfer
import Foundation
import MachineDrivers
import Support
import TerminalUI

/// Issue 23, item 6: what a row of the copy dashboard costs, in heap bytes the allocator holds for it (glibc's
/// `mallinfo2`, so neither the arenas' free space nor thread stacks are counted), for a tree of
/// `STATETUI_BENCH_ROW_FILES` (5,000 by default) one-byte files: a row never started (its name in the list, its
/// row on the screen), and a row whose copy completed (once the screen took in the completion, the row lets its
/// transfer and machine go and keeps their last record: ``SettledTransfer``; its row's figures; and its
/// journal's condensed entry), both through the dashboard `statetui copy` runs: its environment (every screen's
/// runtime, History's list of every row), store, reducer and feed. Prints a table and one JSON line. (Until stop
/// 60 it ran the Transfers screen alone, in the demo dashboard's state, and left History's list of every row
/// out: 83 bytes a row.)
///
/// The copies' pool of chunk buffers (``ChunkBuffers/shared``), kept for the next copy and bounded at 4 MiB
/// whatever the number of rows, is left out of the rows' figures and printed apart: counted in, it added from
/// 180 to 480 bytes a row of 5,000 in one run and the next, as many buffers as copies had run at once.
func runCopyRowBenchmarks() async {
    let count = Int(ProcessInfo.processInfo.environment["STATETUI_BENCH_ROW_FILES"] ?? "") ?? 5_000
    guard let root = makeManyFileDirectory("rowcost") else {
        print("copy row benchmarks: cannot make a temporary directory")
        return
    }
    let source = root + "/src"
    let destination = root + "/dest"
    do {
        for directory in [source, destination] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        for index in 0..<count {
            try Data([UInt8(truncatingIfNeeded: index)]).write(to: URL(fileURLWithPath: source + "/f\(index)"))
        }
        let files = try CopySession(
            sources: [source], destinationDirectory: destination, overwrite: false, options: CopyOptions(),
            simulatesFaults: false
        ).takeAllFiles()
        let pool = ChunkBuffers.shared.keptBytes
        let figures = await measureRowCost(files, poolBefore: pool)
        print("")
        print("Copy dashboard rows: heap bytes a row holds, \(TransferTotals.count(count)) files of 1 byte")
        printFigureTable(
            group: "copy_rows",
            rows: [
                ("row never started", "\(figures.unstarted) B", "target: a few hundred bytes"),
                ("row whose copy completed", "\(figures.completed) B", "last record, figures, row, journal entry"),
                ("chunk buffers kept (all rows)", "\(figures.pool / 1024) KB", "bounded: at most 4 MiB, not a row's"),
                (
                    "quiet after the last completion", milliseconds(figures.quietAfter),
                    "store caught up, threads exited"
                ),
            ])
        print(
            "{\"group\":\"copy_rows\",\"files\":\(count),\"unstarted_row_bytes\":\(figures.unstarted),"
                + "\"completed_row_bytes\":\(figures.completed),\"chunk_pool_bytes\":\(figures.pool),"
                + "\"quiet_after_ms\":\(Int(figures.quietAfter.microsecondsValue / 1000))}")
    } catch {
        print("copy row benchmarks: \(error)")
    }
}

/// What ``measureRowCost(_:poolBefore:)`` measures: heap bytes a row holds, the chunk pool's bytes, and how long
/// after the last completion the process was quiet.
private typealias RowCost = (unstarted: Int, completed: Int, pool: Int, quietAfter: Duration)

/// The heap bytes per row of `files`: once the dashboard's store shows the rows, and once every copy completed,
/// every row settled and the process is quiet (each against the heap before the screen was made,
/// the chunk buffers the copies' pool gained since `poolBefore` taken out), and the bytes the pool gained.
private func measureRowCost(_ files: CopyFiles, poolBefore: Int) async -> RowCost {
    let rows = files.count
    let before = heapInUse()
    // With the thread that measures.
    let threadsBefore = threadCount() + 1
    let runtime = TransfersRuntime(list: files)
    let (finished, finish) = AsyncStream<AppAction>.makeStream()
    let figures = Locked<RowCost>((0, 0, 0, .zero))
    let thread = Thread {
        // The store took in the initial state once it drew the first frame; then every row is started (the
        // effect of `S`), and once each completed, the process is left to become quiet (below).
        Thread.sleep(forTimeInterval: 0.5)
        let unstarted = heapInUse()
        runtime.perform(.sendAll([.start]))
        while !files.phases.allSatisfy({ if case .completed = $0.phase { true } else { false } }) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        // Measured once the process is quiet: every row settled (its list let its transfer go), the copies'
        // worker threads exited (each kept chunks it freed in its allocator cache, counted as in use, until it
        // exited, a few seconds after the last copy), and the process used under 2 % of a core for half a second
        // (the store has taken in every change: a row settles as the feed hands its completion over, before the
        // store reduces it, and a store still working through them holds the state before the batch and the
        // batch). Measured a second after the last completion, the figure for 5,000 rows read 1,300 to 1,630
        // bytes, and for 20,000 either about 820 or about 1,750 from run to run; measured once quiet, 984 and
        // 818 to 830 (three runs). Waits at most two minutes.
        let completedAt = ContinuousClock.now
        let quietBy = completedAt + .seconds(120)
        while (0..<rows).contains(where: { files.settled(at: $0) == nil }) && ContinuousClock.now < quietBy {
            Thread.sleep(forTimeInterval: 0.05)
        }
        while ContinuousClock.now < quietBy {
            let cpu = cpuSeconds(children: false)
            Thread.sleep(forTimeInterval: 0.5)
            if threadCount() <= threadsBefore && cpuSeconds(children: false) - cpu < 0.01 { break }
        }
        let quietAfter = completedAt.duration(to: .now)
        let pool = ChunkBuffers.shared.keptBytes - poolBefore
        let completed = heapInUse() - pool
        figures.withLock {
            $0 = ((unstarted - before) / rows, (completed - before) / rows, pool, quietAfter)
        }
        finish.yield(.quit)
        finish.finish()
    }
    thread.start()
    // The dashboard `statetui copy` runs (`Dashboard.run`): every screen's runtime, the copy's rows in place of the
    // simulated transfers, History's list of every machine, the copy mode's screens and total row.
    var environment = DashboardEnvironment.live(seed: 1, replacing: [.transfers: runtime])
    environment.confirmsQuit = true
    environment.mode = .copy(simulatesFaults: false)
    var app = Dashboard.app(environment)
    app.subscriptions.append(Subscription(finished) { $0 })
    // Consumed: the store then holds the only copy of the rows, as in `statetui copy` (`App/run(on:)`).
    _ = await (consume app).run(detachedOn: HeadlessTerminal(size: Size(width: 120, height: 40)))
    // A copy's stop waits for it to end: on a thread that may block, as at the dashboard's exit.
    let stopping = environment
    await DetachedThread.value(name: "stop") { stopping.stop() }
    return figures.withLock { $0 }
}

/// The threads the process runs now (`/proc/self/task`); 0 when it cannot be read.
private func threadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
}

/// The bytes the allocator holds in use: its arenas' and its own mappings'.
private func heapInUse() -> Int {
    let info = mallinfo2()
    return Int(info.uordblks + info.hblkhd)
}
