import Support

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a machine's reports go: a `@Sendable (Report) -> Void`, called outside the machine's lock.
///
/// Reports arrive in exactly the order the machine applied the events, one at a time, even when many
/// tasks send at once. Reports below ``minimumLevel`` are never built, and a report's message and
/// metadata are made once, when the sink first reads either (``Report/line`` included), so a sink that
/// counts or filters by name stays cheap.
///
/// ## What a sink may do, and what it costs
///
/// - **Read** any machine (`state`, `history`, `snapshot()`): the machine never holds its lock while a
///   sink runs.
/// - **Send to any machine**, its own included, and to machines whose sinks send back: such a `send`
///   never waits for reports. Its own reports follow once the current report returns (its own machine),
///   or are delivered by whoever delivers that machine's reports.
/// - **Block** (write to a file, wait for a lock): allowed, and paid by senders, never by the lock. The
///   thread running the sink is a sender that is delivering reports; while it is busy, other threads whose
///   `send` made reports on the same machine wait for them, blocked (no spinning), so senders go at the
///   sink's pace. A sink must therefore not wait for a thread that is itself sending to that machine
///   from outside a sink.
///
/// One `send` delivers its own reports and at most 64 of other senders' before handing the delivery to a
/// sender that waits (reports that sinks of other machines sent, which nobody waits for, it delivers
/// itself), so one sink's cost is spread over the senders instead of falling on whichever caller happened
/// to deliver first. A `send` made outside any sink returns once its reports have been handed to the
/// thread that delivers them, or delivered.
public struct Reporter: Sendable {
    /// Reports below this level are never built, which keeps a quiet reporter cheap.
    public let minimumLevel: Report.Level
    @usableFromInline let sink: @Sendable (Report) -> Void

    /// A reporter that receives every report, from `trace` up.
    public init(_ sink: @escaping @Sendable (Report) -> Void) {
        self.init(minimumLevel: .trace, sink)
    }

    /// A reporter that receives reports at `minimumLevel` or above.
    public init(minimumLevel: Report.Level, _ sink: @escaping @Sendable (Report) -> Void) {
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    /// Whether a report at `level` would reach the sink.
    @inlinable
    public func accepts(_ level: Report.Level) -> Bool { level >= minimumLevel }

    /// Passes `report` to the sink if its level is accepted. Inlinable, like the engine's reporting path, so
    /// that a report costs the sink's call and nothing more.
    @inlinable
    public func report(_ report: Report) {
        if accepts(report.level) { sink(report) }
    }

    /// Writes one readable line per report (``Report/line``) to standard error, at `minimumLevel` or above.
    public static func standardError(minimumLevel: Report.Level = .notice) -> Reporter {
        lines(to: 2, minimumLevel: minimumLevel) { $0.line }
    }

    /// Writes one JSON object per line to the open file descriptor `descriptor` (not closed by the reporter; a
    /// `FileHandle`'s is its `fileDescriptor`): `{"label":…,"level":…,"message":…,"metadata":{…},"name":…}`.
    public static func jsonLines(to descriptor: Int32, minimumLevel: Report.Level = .trace) -> Reporter {
        lines(to: descriptor, minimumLevel: minimumLevel) { report in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            // Encoding a struct of strings cannot fail; fall back to the readable line rather than drop it.
            guard let data = try? encoder.encode(report), let text = String(data: data, encoding: .utf8) else {
                return report.line
            }
            return text
        }
    }

    /// One line per report, written whole so that lines from concurrent machines never interleave.
    private static func lines(
        to descriptor: Int32, minimumLevel: Report.Level, format: @escaping @Sendable (Report) -> String
    ) -> Reporter {
        let writer = LineWriter(descriptor: descriptor)
        return Reporter(minimumLevel: minimumLevel) { report in
            writer.write(format(report) + "\n")
        }
    }
}

/// Serialises writes to one file descriptor. A line that cannot be written (a closed pipe, a full disk) is
/// dropped: a reporter has nowhere to report its own failure, and the machine it serves must go on.
private final class LineWriter: Sendable {
    private let descriptor: Locked<Int32>

    init(descriptor: Int32) { self.descriptor = Locked(descriptor) }

    func write(_ line: String) {
        descriptor.withLock { _ = writeAll($0, line) }
    }
}
