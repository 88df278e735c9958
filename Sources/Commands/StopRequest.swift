import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP (a closed terminal) as a request to stop, while a command that stops cleanly
/// watches for them (a headless copy keeps its partials and journal): the signals no longer kill the process,
/// the first one is recorded for the command to poll between waits, and standard output and error stop
/// waiting for a reader that takes nothing (``StandardStream/write(_:)``), so a copy piped to a pager nobody
/// scrolls still stops when told. A SIGHUP the process was started ignoring (`nohup`) stays ignored.
package enum StopRequest {
    /// The first signal received while watched (0: none). A lock-free atomic is one of the few things a signal
    /// handler may touch.
    private static let firstSignal = Atomic<Int32>(0)
    /// Whether a ``Watch`` is active.
    private static let watching = Atomic<Bool>(false)

    /// True while a ``Watch`` is active.
    static var isActive: Bool { watching.load(ordering: .relaxed) }

    /// True once a signal was received while watched.
    static var received: Bool { firstSignal.load(ordering: .relaxed) != 0 }

    /// Watching SIGINT, SIGTERM and SIGHUP, until ``Watch/cancel()``.
    package struct Watch {
        /// The signals watched (SIGHUP only when it was not ignored as the watch began).
        let signals: [Int32]

        /// The first signal received, if any.
        package var received: Int32? {
            let number = StopRequest.firstSignal.load(ordering: .relaxed)
            return number == 0 ? nil : number
        }

        /// Stops watching and restores the default actions.
        package func cancel() {
            StopRequest.watching.store(false, ordering: .relaxed)
            for number in signals { signal(number, SIG_DFL) }
        }
    }

    /// What a copy stopped by a signal says after the signal's name (`interrupted by SIGTERM; …`).
    package static let keptForTheNextRun =
        "partial files and the journal are kept, run the same command again to continue"

    /// The signal's name as a person reads it in a message (`SIGTERM`), its number for one this never handles.
    package static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }

    /// Starts watching. A plain `sigaction` handler rather than a dispatch source: it also replaces the
    /// SIG_IGN a shell gives background jobs, and it catches the signal on whichever thread the kernel picks.
    package static func watch() -> Watch {
        firstSignal.store(0, ordering: .relaxed)
        watching.store(true, ordering: .relaxed)
        var current = sigaction()
        // A handler is a C function pointer: compared by its address (SIG_IGN is the address 1).
        let ignored = unsafeBitCast(SIG_IGN, to: Int.self)
        let hangUpIgnored =
            sigaction(SIGHUP, nil, &current) == 0
            && unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == ignored
        let signals = [SIGINT, SIGTERM] + (hangUpIgnored ? [] : [SIGHUP])
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                _ = StopRequest.firstSignal.compareExchange(expected: 0, desired: number, ordering: .relaxed)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        return Watch(signals: signals)
    }
}
