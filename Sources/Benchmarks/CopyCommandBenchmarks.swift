import Commands
import FileTransfer
import Foundation
import MachineDrivers
import SeedModels
import Synchronization

/// `statetui copy --headless` end to end, in this process: the command line, the journal, one
/// `TransferMachine` per file driven by `CopyTransfer`, and the headless progress lines printed while it
/// copies, against `cp` of the same 1 GiB file in the same run (interleaved, medians). Also the pause
/// latency through the machine: from `send(.pause)` returning to the last byte written.
///
/// `cp` (coreutils) uses copy_file_range and never fsyncs; `statetui copy` reads, hashes, writes,
/// checkpoints, fsyncs, verifies and renames. Both ratios are printed: against `cp` and against
/// `cp && sync FILE` (the durable equivalent).
func runCopyCommandBenchmarks() {
    guard let bench = CopyBench(name: "copycmdbench", label: "copy command benchmarks") else { return }
    defer { bench.remove() }
    let (size, runs, source, destination) = (bench.size, bench.runs, bench.source, bench.destination)
    print("")
    print(
        "Copy command benchmarks: statetui copy --headless vs cp, \(size >> 20) MiB, \(runs) runs each, "
            + "load average \(loadAverage())")

    let (cpTimes, cpSyncTimes, oursTimes, lineCounts) = timeCommandRounds(
        source: source, destination: destination, runs: runs)

    let megabytes = Double(size) / 1_000_000
    print(pad("contender", 44) + pad("median s", 10) + pad("MB/s", 8) + "runs")
    for (name, times) in [
        ("cp (copy_file_range, no fsync)", cpTimes), ("cp && sync FILE (durable)", cpSyncTimes),
        ("statetui copy --headless (committed)", oursTimes),
    ] {
        print(
            pad(name, 44) + pad(format(median(times), 3), 10) + pad(format(megabytes / median(times), 0), 8)
                + times.map { format($0, 2) }.joined(separator: " "))
    }
    let ours = median(oursTimes)
    let cp = median(cpTimes)
    let cpSync = median(cpSyncTimes)
    print("headless progress lines printed per copy: \(lineCounts.map(String.init).joined(separator: ", "))")
    print("ratio, statetui copy vs cp && sync: \(format(cpSync / ours * 100, 1))%")
    print("ratio, statetui copy vs cp:         \(format(cp / ours * 100, 1))%")

    let latency = measureMachinePauseLatency(source: source, destination: destination, size: size)
    cleanDestination(destination)
    print(
        "pause through the machine, send(.pause) to last write, ms: median \(format(median(latency.toLastWrite) * 1000, 2)), "
            + "max \(format((latency.toLastWrite.max() ?? .nan) * 1000, 2)); to run stopped (partial synced, "
            + "checkpoint journaled): median \(format(median(latency.toStopped) * 1000, 1)), "
            + "max \(format((latency.toStopped.max() ?? .nan) * 1000, 1))")

    var json = "{\"group\":\"copy_command\",\"bytes\":\(size),\"runs\":\(runs)"
    json += ",\"cp_s\":\(format(cp, 4)),\"cp_sync_s\":\(format(cpSync, 4)),\"statetui_copy_s\":\(format(ours, 4))"
    json += ",\"ratio_vs_cp\":\(format(cp / ours, 4)),\"ratio_vs_cp_sync\":\(format(cpSync / ours, 4))"
    json += ",\"progress_lines\":\(lineCounts.max() ?? 0)"
    json += ",\"pause_to_last_write_ms_median\":\(format(median(latency.toLastWrite) * 1000, 3))"
    json += ",\"pause_to_last_write_ms_max\":\(format((latency.toLastWrite.max() ?? .nan) * 1000, 3))"
    json += ",\"pause_to_stopped_ms_median\":\(format(median(latency.toStopped) * 1000, 3))}"
    print(json)
}

/// Removes what a round left in `destination` (the copies and the journal) and lets the device settle.
private func cleanDestination(_ destination: String) {
    removeAndSettle(["source.bin", "cp.bin", CopyJournal.fileName].map { destination + "/" + $0 })
}

/// Times `runs` rounds of `cp`, `cp && sync FILE` and `statetui copy --headless`, interleaved, each into a
/// clean destination; also the progress lines each copy printed.
private func timeCommandRounds(source: String, destination: String, runs: Int)
    -> (cp: [Double], cpSync: [Double], ours: [Double], lines: [Int])
{
    var cpTimes: [Double] = []
    var cpSyncTimes: [Double] = []
    var oursTimes: [Double] = []
    var lineCounts: [Int] = []
    for _ in 0..<runs {
        cleanDestination(destination)
        let baselines = timeCpBaselines(source: source, destination: destination)
        cpTimes.append(baselines.plain)
        cpSyncTimes.append(baselines.synced)
        cleanDestination(destination)
        let (elapsed, lines, status) = timeHeadlessCopy(source: source, destination: destination)
        if status != 0 { print("copy command benchmarks: statetui copy exited \(status)") }
        oursTimes.append(elapsed)
        lineCounts.append(lines)
    }
    cleanDestination(destination)
    return (cpTimes, cpSyncTimes, oursTimes, lineCounts)
}

/// Runs `statetui copy SOURCE DEST --headless` in process; returns seconds, lines printed and status.
private func timeHeadlessCopy(source: String, destination: String) -> (Double, Int, Int32) {
    var lines = 0
    let io = CommandIO(
        readInputLine: { nil }, readFile: { _ in .failure(CommandIO.ReadError("unused")) },
        writeOutput: { text in lines += text.count { $0 == "\n" } },
        writeError: { text in FileHandle.standardError.write(Data(text.utf8)) })
    let start = ContinuousClock.now
    let status = CommandLineTool.run(["copy", source, destination, "--headless"], io: io) { _ in 2 }
    return (seconds(ContinuousClock.now - start), lines, status)
}

/// Pauses a running 1 GiB copy through its machine (as the `p` key does) several times: how long
/// writes go on after `send(.pause)` returns, and how long until the run has stopped.
private func measureMachinePauseLatency(source: String, destination: String, size: Int) -> (
    toLastWrite: [Double], toStopped: [Double]
) {
    let last = WriteObserver()
    let journal: CopyJournal
    do {
        journal = try CopyJournal(directory: destination)
    } catch {
        print("copy command benchmarks: \(error)")
        return ([.nan], [.nan])
    }
    let transfer = CopyTransfer(
        source: source, destinationDirectory: destination, journal: journal,
        options: CopyOptions(fileSystem: last.observing(.posix)))
    let result = Mutex<(toLastWrite: [Double], toStopped: [Double])>(([], []))
    let done = DispatchSemaphore(value: 0)
    Task {
        var toLastWrite: [Double] = []
        var toStopped: [Double] = []
        transfer.machine.send(.start)
        // Seven pauses, each after a sixteenth of the file, so the copy is still running at the last one
        // whatever its chunk size.
        let stride = Int64(size / 16)
        for _ in 0..<7 {
            // Let it write for a while (resuming re-verifies the prefix first), then pause.
            let bytesBefore = last.bytes.withLock { $0 }
            while last.bytes.withLock({ $0 }) < bytesBefore + stride {
                guard transfer.machine.state.activeRequest != nil else { break }
                try? await Task.sleep(for: .milliseconds(2))
            }
            guard case .running = transfer.machine.state else { break }
            let requested = ContinuousClock.now
            transfer.machine.send(.pause)
            await transfer.settle()
            let stopped = ContinuousClock.now
            let lastWrite = last.lastWrite.withLock { $0 } ?? requested
            toLastWrite.append(max(0, seconds(lastWrite - requested)))
            toStopped.append(seconds(stopped - requested))
            transfer.machine.send(.resume)
        }
        transfer.machine.send(.cancel)
        // Idle after the cancel; a copy that completed meanwhile stays completed.
        while transfer.machine.state.activeRequest != nil { try? await Task.sleep(for: .milliseconds(1)) }
        await transfer.finish()
        result.withLock { $0 = (toLastWrite, toStopped) }
        done.signal()
    }
    done.wait()
    let latencies = result.withLock { $0 }
    return latencies.toLastWrite.isEmpty ? ([.nan], [.nan]) : latencies
}
