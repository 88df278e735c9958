#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files, raised before a copy starts. A copy keeps one descriptor for each
/// destination directory that receives files (and its journal's), so a tree of a few thousand directories
/// needs more than the usual soft limit of 1024 even though only a bounded number of files are open at once
/// (``MachineDrivers/CopySlots``). The soft limit is only a default: a process may raise it up to the hard
/// limit the administrator set, as many servers and runtimes do at startup.
enum OpenFileLimit {
    /// The most this raises the soft limit to, however high the hard limit is.
    static let ceiling = 1 << 16

    /// Raises the soft limit on open files toward the hard limit, at most to ``ceiling``; never lowers it.
    /// Returns the soft limit in effect afterwards (unchanged when it cannot be read or set).
    @discardableResult
    static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        let wanted = min(limit.rlim_max, rlim_t(ceiling))
        guard wanted > limit.rlim_cur else { return Int(clamping: limit.rlim_cur) }
        var raised = limit
        raised.rlim_cur = wanted
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 else { return Int(clamping: limit.rlim_cur) }
        return Int(clamping: wanted)
    }
}
