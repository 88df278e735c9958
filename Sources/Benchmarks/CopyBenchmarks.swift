import FileTransfer
import Foundation
import Support
import Synchronization

/// Copy benchmarks: our copier against `cp` on the same 1 GiB file in the same run, the chunk-size
/// sweep behind `CopyOptions.defaultChunkSize`, pause latency (a pause ends the run's task), and SHA-256
/// throughput (libcrypto).
///
/// `cp` (coreutils 9) copies with copy_file_range and never fsyncs; our copier reads, hashes, writes,
/// checkpoints and fsyncs before the rename. So three baselines are printed: `cp`, `cp` followed by
/// `sync FILE` (the durable equivalent), and our copier's data phase (until the last byte is written
/// and hashed, before the commit's fsync).
func runCopyBenchmarks() {
    guard let bench = CopyBench(name: "copybench", label: "copy benchmarks") else { return }
    defer { bench.remove() }
    let (size, runs, source, destination) = (bench.size, bench.runs, bench.source, bench.destination)
    print(
        "Copy benchmarks: \(size >> 20) MiB, \(runs) runs each, SHA-256 from libcrypto, "
            + "load average \(loadAverage())")

    let hashing = measureHashing()
    let contenders = copyContenders()
    let times = CopyTimes(source: source, destination: destination, runs: runs, contenders: contenders)
    print("")
    printCopyTable(times, contenders: contenders, size: size)
    // What a copy of this size does by default: straight to storage, in the chunks for that.
    let chosen = CopyContender(chunk: CopyOptions.defaultDirectWriteChunkSize, direct: true)
    let cached = CopyContender(chunk: CopyOptions.defaultChunkSize, direct: false)
    let ours = median(times.copies[chosen]!.total)
    let oursData = median(times.copies[chosen]!.data)
    let cp = median(times.cp)
    let cpSync = median(times.cpSync)
    print("")
    print("ratio, committed copy vs cp && sync: \(format(cpSync / ours * 100, 1))% (\(chosen), the default)")
    print(
        "ratio, through the cache vs cp && sync: \(format(cpSync / median(times.copies[cached]!.total) * 100, 1))% "
            + "(\(cached))")
    print("ratio, data phase vs cp:             \(format(cp / oursData * 100, 1))%")
    print("ratio, committed copy vs cp:         \(format(cp / ours * 100, 1))%")

    let latencies = measurePauseLatency(source: source, destination: destination)
    print(
        "pause latency (run's task cancelled to last write), ms: median "
            + "\(format(median(latencies.toLastWrite) * 1000, 2)), max \(format(latencies.toLastWrite.max()! * 1000, 2)); "
            + "cancelled to stopped (partial synced, checkpoint journaled): median "
            + "\(format(median(latencies.toStopped) * 1000, 2)), max \(format(latencies.toStopped.max()! * 1000, 2))")
    print(
        "SHA-256 in memory (libcrypto): \(format(hashing.wall, 0)) MB/s, \(format(hashing.cpu, 0)) MB per CPU second")
    runCopyShapeBenchmarks(runs: runs)

    var json = "{\"group\":\"copy\",\"bytes\":\(size),\"runs\":\(runs),\"chunk_size\":\(chosen.chunk)"
    json += ",\"cp_s\":\(format(cp, 4)),\"cp_sync_s\":\(format(cpSync, 4))"
    for contender in contenders {
        json += ",\"copy_\(contender.key)_s\":\(format(median(times.copies[contender]!.total), 4))"
        json += ",\"copy_\(contender.key)_data_s\":\(format(median(times.copies[contender]!.data), 4))"
    }
    json += ",\"ratio_vs_cp_sync\":\(format(cpSync / ours, 4)),\"ratio_data_vs_cp\":\(format(cp / oursData, 4))"
    json += ",\"ratio_vs_cp\":\(format(cp / ours, 4))"
    json += ",\"cp_cpu_s\":\(format(median(cpuByContender.withLock { $0["/bin/cp"] } ?? []), 3))"
    json += ",\"copy_cpu_s\":\(format(median(cpuByContender.withLock { $0["\(chosen)"] } ?? []), 3))"
    json += ",\"copy_cached_cpu_s\":\(format(median(cpuByContender.withLock { $0["\(cached)"] } ?? []), 3))"
    json += ",\"pause_latency_ms_median\":\(format(median(latencies.toLastWrite) * 1000, 3))"
    json += ",\"pause_latency_ms_max\":\(format(latencies.toLastWrite.max()! * 1000, 3))"
    json += ",\"sha256_mbps\":\(format(hashing.wall, 0)),\"sha256_cpu_mbps\":\(format(hashing.cpu, 0))}"
    print(json)
}

/// The copiers the sweep times: each chunk size through the page cache and written straight to storage.
/// COPY_BENCH_CHUNKS="64,256,1024" (KiB) overrides the sizes; the default chunk sizes are always among them.
private func copyContenders() -> [CopyContender] {
    let requested = (ProcessInfo.processInfo.environment["COPY_BENCH_CHUNKS"] ?? "256,1024")
        .split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { $0 << 10 }
    let chunkSizes = Array(
        Set(requested + [CopyOptions.defaultChunkSize, CopyOptions.defaultDirectWriteChunkSize])
    ).sorted()
    return [false, true].flatMap { direct in chunkSizes.map { CopyContender(chunk: $0, direct: direct) } }
}

/// The seconds of every run: `cp`, `cp && sync FILE`, and each of our copiers, whole and its data phase.
private struct CopyTimes {
    var cp: [Double] = []
    var cpSync: [Double] = []
    var copies: [CopyContender: (total: [Double], data: [Double])] = [:]

    /// Times `runs` rounds of every contender, interleaved, so a burst of load from elsewhere hits every
    /// contender alike.
    init(source: String, destination: String, runs: Int, contenders: [CopyContender]) {
        for _ in 0..<runs {
            let baselines = timeCpBaselines(source: source, destination: destination)
            cp.append(baselines.plain)
            cpSync.append(baselines.synced)
            for contender in contenders.shuffled() {
                let (total, data) = timeOurCopy(source: source, destination: destination, contender)
                copies[contender, default: ([], [])].total.append(total)
                copies[contender, default: ([], [])].data.append(data)
            }
        }
    }
}

/// The table of the contenders' times: median seconds, MB/s, CPU seconds and every run.
private func printCopyTable(_ times: CopyTimes, contenders: [CopyContender], size: Int) {
    var rows: [(String, [Double], [Double]?)] = [
        ("cp (copy_file_range, no fsync)", times.cp, cpuByContender.withLock { $0["/bin/cp"] }),
        ("cp && sync FILE (durable)", times.cpSync, cpuByContender.withLock { $0["/bin/sh"] }),
    ]
    for contender in contenders {
        rows.append(("statetui copy, \(contender), data phase", times.copies[contender]!.data, nil))
        rows.append(
            (
                "statetui copy, \(contender), committed", times.copies[contender]!.total,
                cpuByContender.withLock { $0["\(contender)"] }
            ))
    }
    let megabytes = Double(size) / 1_000_000
    print(pad("contender", 48) + pad("median s", 10) + pad("MB/s", 8) + pad("CPU s", 7) + "runs")
    for (name, times, cpu) in rows {
        let middle = median(times)
        print(
            pad(name, 48) + pad(format(middle, 3), 10) + pad(format(megabytes / middle, 0), 8)
                + pad(cpu.map { format(median($0), 2) } ?? "", 7) + times.map { format($0, 2) }.joined(separator: " "))
    }
}

/// A copy benchmark's ground: the source file's size, `COPY_BENCH_BYTES` (1 GiB unless set), the runs of each
/// contender, `COPY_BENCH_RUNS` (5 unless set, at least 3: issue 23 compares medians of at least 5), and a fresh directory /tmp/statetui-NAME-XXXXXX holding
/// `source.bin` of that size and an empty `out`.
struct CopyBench {
    var size: Int
    var runs: Int
    var root: String
    var source: String
    var destination: String

    /// The ground made; nil, after printing why under `label`, when the directory or the source cannot be
    /// made. The caller calls ``remove()``.
    init?(name: String, label: String) {
        let environment = ProcessInfo.processInfo.environment
        size = Int(environment["COPY_BENCH_BYTES"] ?? "") ?? 1 << 30
        runs = max(3, Int(environment["COPY_BENCH_RUNS"] ?? "") ?? 5)
        guard let root = makeTemporaryDirectory(name) else {
            print("\(label): cannot create a directory under /tmp: \(Errno.current)")
            return nil
        }
        self.root = root
        source = root + "/source.bin"
        destination = root + "/out"
        do {
            try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
            try makeSource(at: source, size: size)
        } catch {
            print("\(label): cannot prepare \(source): \(error)")
            try? FileManager.default.removeItem(atPath: root)
            return nil
        }
    }

    /// Removes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}

func makeSource(at path: String, size: Int) throws {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var remaining = size
    var block = [UInt64](repeating: 0, count: (4 << 20) / 8)
    while remaining > 0 {
        for index in block.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            block[index] = state
        }
        let count = min(remaining, block.count * 8)
        try block.withUnsafeBytes { try handle.write(contentsOf: Data($0.prefix(count))) }
        remaining -= count
    }
}

/// CPU seconds (user + system) used so far by this process or by its waited-for children.
func cpuSeconds(children: Bool) -> Double {
    var usage = rusage()
    _ = getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &usage)
    func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return value(usage.ru_utime) + value(usage.ru_stime)
}

/// CPU seconds spent by each contender, which the other engineers' load on the machine barely skews.
private let cpuByContender = Mutex<[String: [Double]]>([:])

/// The two baselines, one run each: `cp SOURCE DESTINATION/cp.bin` and the same followed by `sync` of the copy
/// (the durable equivalent); the copy is removed after each.
func timeCpBaselines(source: String, destination: String) -> (plain: Double, synced: Double) {
    let copy = destination + "/cp.bin"
    let plain = timeProcess("/bin/cp", [source, copy])
    removeAndSettle([copy])
    let synced = timeProcess("/bin/sh", ["-c", "cp \"$0\" \"$1\" && sync \"$1\"", source, copy])
    removeAndSettle([copy])
    return (plain, synced)
}

/// Removes what a contender wrote and waits for the file systems to settle (`sync`), so the next contender
/// starts on a quiet device: on a file system mounted with `discard`, removing a gigabyte trims its blocks
/// while whatever runs next writes, and only the contender timed after a removal would pay for it.
func removeAndSettle(_ paths: [String]) {
    for path in paths {
        try? FileManager.default.removeItem(atPath: path)
    }
    sync()
}

func timeProcess(_ executable: String, _ arguments: [String]) -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let start = ContinuousClock.now
    do {
        try process.run()
    } catch {
        print("copy benchmarks: cannot run \(executable): \(error)")
        return .nan
    }
    let cpuBefore = cpuSeconds(children: true)
    process.waitUntilExit()
    let elapsed = seconds(ContinuousClock.now - start)
    let cpu = cpuSeconds(children: true) - cpuBefore
    cpuByContender.withLock { $0[executable, default: []].append(cpu) }
    return elapsed
}

/// What a UI does with progress: keep the newest percent, wake the view only when it changes.
private final class ProgressSink: Sendable {
    private let percent = Mutex(-1)
    private let changes = Mutex(0)
    private let dataDone = Mutex<ContinuousClock.Instant?>(nil)

    func report(_ progress: CopyProgress) {
        let changed = percent.withLock { current in
            defer { current = progress.percent }
            return current != progress.percent
        }
        if changed { changes.withLock { $0 += 1 } }
        if progress.bytesWritten == progress.totalBytes {
            dataDone.withLock { $0 = ContinuousClock.now }
        }
    }

    var finishedData: ContinuousClock.Instant? { dataDone.withLock { $0 } }
}

/// COPY_BENCH_CHECKPOINT_MIB overrides the checkpoint interval (to measure what durability costs).
private let checkpointInterval: Int64 =
    Int64(ProcessInfo.processInfo.environment["COPY_BENCH_CHECKPOINT_MIB"] ?? "")
    .map { Int64($0) << 20 } ?? CopyOptions.defaultCheckpointInterval

/// Runs one full copy with journal and progress; returns (committed seconds, data-phase seconds).
/// One way of running the in-process copy: its chunk size, and whether the file is written straight to
/// storage or through the page cache.
struct CopyContender: Hashable, CustomStringConvertible {
    var chunk: Int
    var direct: Bool

    var description: String { "\(chunk >> 10) KiB chunks, \(direct ? "direct" : "cached")" }
    /// The contender in the JSON line's keys.
    var key: String { "\(chunk >> 10)k\(direct ? "_direct" : "")" }

    /// Copy options that run this contender whatever the file's size.
    var options: CopyOptions {
        var options = CopyOptions(chunkSize: chunk, checkpointInterval: checkpointInterval)
        options.directWriteMinimumSize = direct ? 0 : .max
        options.directWriteChunkSize = chunk
        return options
    }
}

private func timeOurCopy(source: String, destination: String, _ contender: CopyContender) -> (Double, Double) {
    let sink = ProgressSink()
    let cpuBefore = cpuSeconds(children: false)
    let start = ContinuousClock.now
    let outcome = blocking { () async throws(TransferError) -> CopyOutcome in
        let journal = try CopyJournal(directory: destination)
        let job = CopyJob(
            request: CopyRequest(id: "bench", source: source, destinationDirectory: destination, overwrite: true),
            journal: journal, options: contender.options)
        return try await job.run { sink.report($0) }
    }
    let end = ContinuousClock.now
    let cpu = cpuSeconds(children: false) - cpuBefore
    cpuByContender.withLock { $0["\(contender)", default: []].append(cpu) }
    if case .failure(let error) = outcome {
        print("copy benchmarks: copy failed: \(error)")
    }
    removeAndSettle([destination + "/source.bin", destination + "/" + CopyJournal.fileName])
    let data = sink.finishedData.map { seconds($0 - start) } ?? .nan
    return (seconds(end - start), data)
}

/// Counts a file system's writes and keeps the time of the newest, for the pause latencies.
final class WriteObserver: Sendable {
    /// When the newest write returned.
    let lastWrite = Mutex<ContinuousClock.Instant?>(nil)
    /// How many writes returned.
    let writes = Mutex(0)
    /// How many bytes they wrote.
    let bytes = Mutex<Int64>(0)

    /// `fileSystem` with every write counted and timestamped here.
    func observing(_ fileSystem: FileSystem) -> FileSystem {
        var observed = fileSystem
        let write = fileSystem.write
        observed.calls.write = { descriptor, bytes, offset throws(Errno) in
            let count = try write(descriptor, bytes, offset)
            self.lastWrite.withLock { $0 = ContinuousClock.now }
            self.writes.withLock { $0 += 1 }
            self.bytes.withLock { $0 += Int64(count) }
            return count
        }
        return observed
    }
}

/// Pauses a running 1 GiB copy from outside several times, as the dashboard does (a pause ends the
/// visit's work, which cancels the task awaiting the run), and measures how long writes go on after the
/// cancel and how long until the run has stopped, using a file system that timestamps every write.
private func measurePauseLatency(source: String, destination: String) -> (toLastWrite: [Double], toStopped: [Double]) {
    let observations = WriteObserver()
    let job = CopyJob(
        request: CopyRequest(id: "pause", source: source, destinationDirectory: destination, overwrite: true),
        options: CopyOptions(fileSystem: observations.observing(.posix)))
    let result: Result<(toLastWrite: [Double], toStopped: [Double]), TransferError> = blocking {
        () async throws(TransferError) -> (toLastWrite: [Double], toStopped: [Double]) in
        var toLastWrite: [Double] = []
        var toStopped: [Double] = []
        for _ in 0..<7 {
            // Each resume continues the same job at the offset the last pause reached.
            observations.writes.withLock { $0 = 0 }
            let running = Task { try await job.run { _ in } }
            let deadline = ContinuousClock.now + .seconds(30)
            while observations.writes.withLock({ $0 }) < 2, ContinuousClock.now < deadline { await Task.yield() }
            try? await Task.sleep(for: .milliseconds(40))
            let requested = ContinuousClock.now
            running.cancel()
            guard case .success(.interrupted) = await running.result else { break }
            let stopped = ContinuousClock.now
            let last = observations.lastWrite.withLock { $0 } ?? requested
            toLastWrite.append(max(0, seconds(last - requested)))
            toStopped.append(seconds(stopped - requested))
        }
        job.cancel()
        return (toLastWrite, toStopped)
    }
    switch result {
    case .success(let latencies) where !latencies.toLastWrite.isEmpty:
        return latencies
    case .success, .failure:
        return ([.nan], [.nan])
    }
}

/// SHA-256 throughput in memory, MB/s: the median of five passes over 64 MiB, per second of wall time
/// and per second of this thread's CPU time (which a busy machine barely skews).
private func measureHashing() -> (wall: Double, cpu: Double) {
    let bytes = [UInt8](repeating: 0x5a, count: 64 << 20)
    let megabytes = Double(bytes.count) / 1_000_000
    var wall: [Double] = []
    var cpu: [Double] = []
    for _ in 0..<5 {
        var hasher = SHA256()
        let start = ContinuousClock.now
        let cpuStart = threadCPUTime()
        hasher.update(bytes)
        _ = hasher.finalize()
        cpu.append(megabytes / seconds(threadCPUTime() - cpuStart))
        wall.append(megabytes / seconds(ContinuousClock.now - start))
    }
    return (median(wall), median(cpu))
}

/// Runs async work to completion from synchronous benchmark code.
private func blocking<T: Sendable>(
    _ work: @escaping @Sendable () async throws(TransferError) -> T
) -> Result<T, TransferError> {
    let box = Mutex<Result<T, TransferError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do throws(TransferError) {
            let value = try await work()
            box.withLock { $0 = .success(value) }
        } catch {
            box.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    return box.withLock { $0! }
}

func seconds(_ duration: Duration) -> Double {
    duration.inSeconds
}

func format(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
        .joined(separator: " ") ?? "?"
}

/// The sources of the copy shapes: `tree` holding 9,900 files of 1 KiB, and `sparse`, a 4 GiB file holding
/// 1 MiB of data in its middle.
private func makeShapeSources(tree: String, sparse: String) throws {
    try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
    for index in 0..<9_900 {
        try Data(repeating: UInt8(truncatingIfNeeded: index), count: 1024).write(
            to: URL(fileURLWithPath: tree + "/f\(index)"))
    }
    guard FileManager.default.createFile(atPath: sparse, contents: nil),
        let handle = FileHandle(forWritingAtPath: sparse)
    else { throw Errno.current }
    try handle.truncate(atOffset: 4 << 30)
    try handle.seek(toOffset: 2 << 30)
    try handle.write(contentsOf: Data(repeating: 7, count: 1 << 20))
    try handle.close()
}

/// `runs` alternated rounds of `statetui copy --headless SOURCE` and of the shell command `baseline`, each
/// into a new directory under `outputs` on a settled device; the seconds of each.
private func timeShape(
    _ name: String, source: String, baseline: String, statetui: String, outputs: String, runs: Int
) -> (ours: [Double], theirs: [Double]) {
    var ours: [Double] = []
    var theirs: [Double] = []
    for run in 0..<runs {
        let order = run % 2 == 0 ? [true, false] : [false, true]
        for isOurs in order {
            let destination = outputs + "/shape-out-\(name.prefix(1))-\(run)-\(isOurs ? "ours" : "cp")"
            // On a settled device: the last copy written back before the clock starts.
            sync()
            try? FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
            if isOurs {
                ours.append(
                    timeProcess(
                        "/bin/sh",
                        ["-c", "\"$0\" copy --headless \"$1\" \"$2\" >/dev/null", statetui, source, destination]))
            } else {
                theirs.append(timeProcess("/bin/sh", ["-c", baseline, source, destination + "/"]))
            }
        }
    }
    return (ours, theirs)
}

/// The shapes beside one big file, each through the release `statetui copy --headless` (the binary beside
/// this one) against its durable `cp` in the same run, alternated, medians: many small files (9,900 of
/// 1 KiB: the tree bound is 10,000 entries) against `cp -a … && sync -f`, and a 4 GiB sparse file holding
/// 1 MiB of data against `cp --sparse=always … && sync -f`. A ratio above 100% means statetui is faster.
///
/// Every run writes a destination of its own, and all are removed only after the last group
/// (``makeManyFileDirectory(_:)`` says why); each run still starts on a settled device (`sync`).
func runCopyShapeBenchmarks(runs: Int) {
    let statetui = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/statetui"
    guard FileManager.default.isExecutableFile(atPath: statetui) else {
        print("copy shape benchmarks: no \(statetui) (make bench builds it)")
        return
    }
    guard let root = makeManyFileDirectory("copyshapes") else {
        print("copy shape benchmarks: cannot create a directory under /tmp: \(Errno.current)")
        return
    }
    let tree = root + "/small"
    let sparse = root + "/sparse.bin"
    do {
        try makeShapeSources(tree: tree, sparse: sparse)
    } catch {
        print("copy shape benchmarks: cannot make the sources: \(error)")
        return
    }
    print("")
    print("Copy shapes: statetui copy --headless vs durable cp, \(runs) alternated runs, load average \(loadAverage())")
    for (name, source, baseline) in [
        ("9,900 files of 1 KiB", tree, "cp -a \"$0\" \"$1\" && sync -f \"$1\""),
        ("4 GiB sparse, 1 MiB data", sparse, "cp --sparse=always \"$0\" \"$1\" && sync -f \"$1\""),
    ] {
        let (ours, theirs) = timeShape(
            name, source: source, baseline: baseline, statetui: statetui, outputs: root, runs: runs)
        print(
            pad(name, 28) + "statetui \(format(median(ours), 3)) s, cp \(format(median(theirs), 3)) s: ratio "
                + "\(format(median(theirs) / median(ours) * 100, 1))% (runs: "
                + "\(ours.map { format($0, 2) }.joined(separator: " ")) vs \(theirs.map { format($0, 2) }.joined(separator: " ")))"
        )
    }
}
