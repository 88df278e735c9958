#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files, raised before a copy starts. A copy keeps one descriptor for each
/// destination directory that receives files (and its journal's), so a tree of a few thousand directories
/// needs more than the usual soft limit of 1024 even though only a bounded number of files are open at once
/// (the copies' slots and the files with no name, ``UnnamedFiles/Budget``, which this limit sizes). The soft
/// limit is only a default: a process may raise it up to the hard limit the administrator set, as many servers
/// and runtimes do at startup.
package enum OpenFileLimit {
    /// The most ``raise()`` sets the soft limit to, however high the hard limit is.
    package static let ceiling = 1 << 16

    /// The soft limit in effect (unlimited as `Int.max`); 1024 when it cannot be read.
    package static var current: Int {
        limits().map { Int(clamping: $0.rlim_cur) } ?? 1024
    }

    /// Raises the soft limit on open files toward the hard limit, at most to ``ceiling``; never lowers it.
    /// Returns the soft limit in effect afterwards (unchanged when it cannot be set).
    @discardableResult
    package static func raise() -> Int {
        guard var limit = limits() else { return current }
        let wanted = min(limit.rlim_max, rlim_t(ceiling))
        if wanted > limit.rlim_cur {
            limit.rlim_cur = wanted
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return current
    }

    /// The soft and hard limits, or nil when they cannot be read.
    private static func limits() -> rlimit? {
        var limit = rlimit()
        return getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? limit : nil
    }
}
