import DashboardApp
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `statetui copy --headless` of a tree of many empty files (directories of 1,000), run as a child process
/// (the release `statetui` next to this executable) so its peak resident memory can be read (`VmHWM`,
/// sampled every 10 ms), against `cp -a SRC DEST && sync -f DEST` of the same tree, alternated, medians.
///
/// The file counts are `STATETUI_BENCH_TREE_FILES` (comma-separated, 10,000, the yardstick, and 30,000 by
/// default; add 1000000 for the million the issue bounds at 64 MB), the runs each `STATETUI_BENCH_TREE_RUNS` (3).
/// `STATETUI_BENCH_TREE_SMALL_DIRECTORY_FILES` (10,000 by default, empty for none) are copied again as a tree of
/// directories of 10, as a source tree of many small directories is: each directory costs the copy a journal
/// and its own batches of commits.
///
/// Each contender starts on a settled device (`sync`) and writes a destination of its own; all are removed
/// after the last group (``makeManyFileDirectory(_:)``). Until stop 36 the previous copy's removal was not synced first, so `cp -a && sync -f`
/// also paid for writing back the removal of statetui's copy (on a file system mounted with `discard`,
/// trimming its blocks too), which made it look several times slower than it is (27 s for 30,000 empty
/// files, against about 2 s settled). Until stop 37 each run still began right after a removal, which slowed
/// its creates: ext4 without a journal (this machine's root) skips inodes freed in the last five minutes by
/// reading each one's inode table block.
///
/// Each contender's CPU time (user and system, its children's included) is printed beside its wall time, and
/// the same comparison runs again on tmpfs (`/dev/shm`, when it is one; `STATETUI_BENCH_TREE_TMPFS_FILES`,
/// 10,000 by default, empty for none), where no device time hides the CPU cost: on this machine's ext4 the wall
/// time ratio ran from 0.67 to 2.9 with the file system's history (stop 60), and the CPU figures and the tmpfs
/// run do not depend on it.
func runCopyTreeBenchmarks() {
    let environment = ProcessInfo.processInfo.environment
    func counts(_ variable: String, _ fallback: String) -> [Int] {
        (environment[variable] ?? fallback).split(separator: ",").compactMap { Int($0) }
    }
    let runs = Int(environment["STATETUI_BENCH_TREE_RUNS"] ?? "") ?? 3
    let statetui = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("statetui").path
    guard FileManager.default.isExecutableFile(atPath: statetui) else {
        print("copy tree benchmarks: no \(statetui) (make bench builds it)")
        return
    }
    guard let work = makeManyFileDirectory("treebench") else {
        print("copy tree benchmarks: cannot make a temporary directory")
        return
    }
    let tmpfsCounts = counts("STATETUI_BENCH_TREE_TMPFS_FILES", "10000")
    let tmpfs = tmpfsCounts.isEmpty || !isTmpfs("/dev/shm") ? nil : makeManyFileDirectory("treebench", in: "/dev/shm")
    print("")
    print(
        "Copy tree benchmarks: statetui copy --headless vs cp -a && sync -f, empty files in directories of 1,000 "
            + "(\"by 10\": of 10), \(runs) runs each, alternated, load average \(loadAverage())")
    print(
        pad("files", 13) + pad("contender", 30) + pad("median s", 10) + pad("CPU s", 8) + pad("peak RSS MB", 13)
            + "runs (s / MB)")
    var json = "{\"group\":\"copy_tree\",\"runs\":\(runs)"
    for count in counts("STATETUI_BENCH_TREE_FILES", "10000,30000") {
        json += compareTreeCopies(
            files: count, label: TransferTotals.count(count), key: "files_\(count)", in: work, statetui: statetui,
            runs: runs)
    }
    for count in counts("STATETUI_BENCH_TREE_SMALL_DIRECTORY_FILES", "10000") {
        json += compareTreeCopies(
            files: count, perDirectory: 10, label: TransferTotals.count(count) + " by 10",
            key: "files_\(count)_in_directories_of_10", in: work, statetui: statetui, runs: runs)
    }
    if let tmpfs {
        for count in tmpfsCounts {
            json += compareTreeCopies(
                files: count, label: TransferTotals.count(count) + " tmpfs", key: "tmpfs_files_\(count)", in: tmpfs,
                statetui: statetui, runs: runs)
        }
    } else if !tmpfsCounts.isEmpty {
        print("(no tmpfs at /dev/shm: the comparison without device time is left out)")
    }
    print(json + "}")
}

/// Copies a tree of `files` empty files in directories of `perDirectory` made in `work` `runs` times by each
/// contender, alternated; prints a line for each and their ratios, and returns the JSON member `key` of their medians.
private func compareTreeCopies(
    files count: Int, perDirectory: Int = 1_000, label: String, key: String, in work: String, statetui: String,
    runs: Int
) -> String {
    let source = work + "/src-\(count)-\(perDirectory)"
    makeEmptyTree(at: source, files: count, perDirectory: perDirectory)
    // Removed with `work` after the last group, not here: the next count's runs would begin right after a
    // removal.
    let (cp, ours) = timeTreeCopies(
        source: source, destination: work + "/dest-\(count)-\(perDirectory)", statetui: statetui, runs: runs)
    for (name, figures) in [("cp -a && sync -f", cp), ("statetui copy --headless", ours)] {
        print(
            pad(label, 13) + pad(name, 30) + pad(format(median(figures.map(\.seconds)), 2), 10)
                + pad(format(median(figures.map(\.cpuSeconds)), 2), 8)
                + pad(format(median(figures.map(\.megabytes)), 1), 13)
                + figures.map { "\(format($0.seconds, 2))/\(format($0.megabytes, 0))" }.joined(separator: " "))
    }
    let ratio = median(ours.map(\.seconds)) / median(cp.map(\.seconds))
    let cpuRatio = median(ours.map(\.cpuSeconds)) / median(cp.map(\.cpuSeconds))
    print(
        pad("", 13) + "time ratio, statetui copy / (cp -a && sync -f): \(format(ratio, 2)); CPU time ratio: "
            + format(cpuRatio, 2))
    return ",\"\(key)\":{\"cp_s\":\(format(median(cp.map(\.seconds)), 3))"
        + ",\"cp_cpu_s\":\(format(median(cp.map(\.cpuSeconds)), 3))"
        + ",\"cp_rss_mb\":\(format(median(cp.map(\.megabytes)), 1))"
        + ",\"statetui_s\":\(format(median(ours.map(\.seconds)), 3))"
        + ",\"statetui_cpu_s\":\(format(median(ours.map(\.cpuSeconds)), 3))"
        + ",\"statetui_rss_mb\":\(format(median(ours.map(\.megabytes)), 1))}"
}

/// What one run of a contender measured.
private typealias TreeRun = (seconds: Double, cpuSeconds: Double, megabytes: Double)

/// Whether `path` is the mount point of a tmpfs (`/proc/mounts`).
private func isTmpfs(_ path: String) -> Bool {
    guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return false }
    return mounts.split(separator: "\n").contains { line in
        let fields = line.split(separator: " ")
        return fields.count > 2 && fields[1] == path && fields[2] == "tmpfs"
    }
}

/// Seconds, CPU seconds and peak resident megabytes of `runs` copies of the tree at `source` by
/// `cp -a && sync -f` and by `statetui copy --headless`, alternated, each into a fresh directory named
/// `destination-N`.
private func timeTreeCopies(source: String, destination: String, statetui: String, runs: Int)
    -> (cp: [TreeRun], ours: [TreeRun])
{
    var cp: [TreeRun] = []
    var ours: [TreeRun] = []
    for run in 0..<runs {
        for contender in 0..<2 {
            let destination = destination + "-\(2 * run + contender)"
            sync()
            mkdir(destination, 0o755)
            if contender == 0 {
                let run = runChild("/bin/sh", ["-c", "cp -a \"$0\" \"$1\" && sync -f \"$1\"", source, destination])
                cp.append((run.seconds, run.cpuSeconds, run.megabytes))
            } else {
                let run = runChild(statetui, ["copy", source, destination, "--headless"])
                if run.status != 0 { print("copy tree benchmarks: statetui copy exited \(run.status)") }
                ours.append((run.seconds, run.cpuSeconds, run.megabytes))
            }
        }
    }
    return (cp, ours)
}

/// `files` empty files under `root`, 1,000 a directory (`root/0000/000000`, …).
private func makeEmptyTree(at root: String, files: Int, perDirectory: Int) {
    mkdir(root, 0o755)
    var made = 0
    var directory = 0
    while made < files {
        let path = root + "/" + String(format: "%06d", directory)
        mkdir(path, 0o755)
        for index in 0..<min(perDirectory, files - made) {
            let descriptor = open(path + "/" + String(format: "%06d", index), O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            if descriptor >= 0 { close(descriptor) }
        }
        made += min(perDirectory, files - made)
        directory += 1
    }
}

/// Runs `executable` with `arguments`, its output discarded; its wall time, peak resident memory and status.
private func runChild(_ executable: String, _ arguments: [String]) -> (
    seconds: Double, cpuSeconds: Double, megabytes: Double, status: Int32
) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
        print("copy tree benchmarks: cannot run \(executable)")
        return (.nan, .nan, .nan, -1)
    }
    // The peak is sampled from /proc while the run lives, not taken from wait4's ru_maxrss: Linux starts a
    // spawned child's maxrss at its parent's resident size (this process's, about 32 MB), which hid every
    // smaller figure.
    // Its CPU time is wait4's, which on Linux counts the children it waited for too (`cp` under the shell).
    var status: Int32 = 0
    var peakKB = 0
    var usage = rusage()
    while true {
        peakKB = max(peakKB, largestResidentHighWaterKB(in: pid))
        let reaped = wait4(pid, &status, WNOHANG, &usage)
        if reaped == pid || (reaped < 0 && errno != EINTR) { break }
        usleep(10_000)
    }
    let elapsed = seconds(ContinuousClock.now - start)
    func cpu(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return (
        elapsed, cpu(usage.ru_utime) + cpu(usage.ru_stime), Double(peakKB) / 1024,
        (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    )
}
