import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Resident memory of this process and of the processes a benchmark starts, from /proc. A spawned child's
// peak is never taken from wait4's ru_maxrss: Linux starts a spawned child's maxrss at the spawning
// process's own peak (this one's, tens of MB), which hides every smaller figure.

/// Resident memory of this process in KB, from /proc (0 where there is none).
func ownResidentKB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// Peak resident set size of this process in bytes (Linux `VmHWM`), or nil where unavailable.
func peakResidentBytes() -> Int? { statusBytes("VmHWM:") }

/// A size in bytes from a line of /proc/self/status (`VmHWM:`, `VmRSS:`), or nil where unavailable.
func statusBytes(_ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(field) {
        let fields = line.split(separator: " ")
        if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
    }
    return nil
}

/// Peak resident growth in bytes while `body` runs: the peak is reset first (Linux `clear_refs` 5), and
/// large blocks are returned to the system when freed, so an earlier run's memory is not counted.
func peakResidentGrowth(_ body: () -> Void) -> Int? {
    guard resetPeakResident() else { return nil }
    guard let before = statusBytes("VmRSS:") else { return nil }
    body()
    return peakResidentBytes().map { $0 - before }
}

/// Resets this process's peak resident size (`VmHWM`) to its current one (Linux `clear_refs` 5); false
/// where that is not possible.
@discardableResult
func resetPeakResident() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    handle.write(Data("5".utf8))
    try? handle.close()
    return true
}

/// Makes glibc's allocator map every block of 1 MiB or more on its own and unmap it when freed (mallopt
/// `M_MMAP_THRESHOLD`, found at run time: the Glibc module does not export <malloc.h>), so a run's peak
/// resident growth is not hidden by memory an earlier run freed and the allocator kept.
func returnLargeBlocksWhenFreed() {
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(nil, "mallopt") else { return }
    let mmapThreshold: Int32 = -3
    _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, 1 << 20)
}

/// The largest `VmHWM` (peak resident size, KiB) among `pid` and its descendants now (`cp -a … && sync -f …`
/// runs under a shell); 0 for a process that is gone.
func largestResidentHighWaterKB(in pid: pid_t) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let own =
        status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0
    let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
    return children.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        .reduce(own) { max($0, largestResidentHighWaterKB(in: $1)) }
}

/// Peak resident memory in KB of `arguments` (run from `PATH`), a command that exits as soon as it has written
/// its output (`statetui --version`): too quick for sampling while it runs. Its standard output is a pipe of
/// one page that this process fills first, so the command blocks in its last write with all its memory still
/// mapped; its own `VmHWM` is read then, and the pipe drained. Nil when it cannot run or fails.
func quickCommandPeakKB(_ arguments: [String]) -> Int? {
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { return nil }
    defer { close(descriptors[0]) }
    _ = fcntl(descriptors[1], 1031, 4096)  // F_SETPIPE_SZ: the smallest pipe, quick to fill
    _ = fcntl(descriptors[1], F_SETFL, O_NONBLOCK)
    let page = [UInt8](repeating: 0x2E, count: 4096)
    while page.withUnsafeBytes({ write(descriptors[1], $0.baseAddress, $0.count) }) > 0 {}
    _ = fcntl(descriptors[1], F_SETFL, 0)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, descriptors[1], 1)
    posix_spawn_file_actions_addclose(&actions, descriptors[0])
    posix_spawn_file_actions_addclose(&actions, descriptors[1])
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
    close(descriptors[1])
    guard spawned == 0 else { return nil }
    // Sampled while it runs, and once more when it sits in write(2) (syscall 1 on x86-64, 64 on arm64).
    var peakKB = 0
    let writeCall = ["1", "64"]
    for _ in 0..<20_000 {
        peakKB = max(peakKB, largestResidentHighWaterKB(in: pid))
        let call = (try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8))?.split(separator: " ").first
        if let call, writeCall.contains(String(call)) {
            peakKB = max(peakKB, largestResidentHighWaterKB(in: pid))
            break
        }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { return nil }
        usleep(200)
    }
    var buffer = [UInt8](repeating: 0, count: 65536)
    while buffer.withUnsafeMutableBytes({ read(descriptors[0], $0.baseAddress, $0.count) }) > 0 {}
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return status == 0 && peakKB > 0 ? peakKB : nil
}
