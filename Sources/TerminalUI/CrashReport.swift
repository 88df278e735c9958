import CNCurses

/// What a crash prints: one line on standard error, after the terminal is restored, instead of the Swift
/// runtime's backtracer, which on a terminal prints a page of source and waits for a key ("Press space to
/// interact").
public enum CrashReport {
    /// Handles SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP: restores the terminal if one is open,
    /// prints `PROGRAM: crashed with SIGSEGV (…)` and dies of the same signal (exit status 128 + its number).
    /// Not when `SWIFT_BACKTRACE` is set: whoever set it asked for the runtime's backtracer.
    public static func install(program: String, environment: [String: String]) {
        guard environment["SWIFT_BACKTRACE"] == nil else { return }
        cn_install_crash_report(program)
    }
}
