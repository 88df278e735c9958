import Foundation
import Support

/// Where a machine's reports go: a `@Sendable (Report) -> Void`, called outside the machine's lock.
///
/// Reports arrive in exactly the order the machine applied the events, one at a time, even when many
/// tasks send at once. A reporter may call `send` or read `state` on the machine that reported: the
/// machine never holds its lock while a reporter runs (the reports of such a `send` follow once the
/// current one returns). Reports below ``minimumLevel`` are never built, and a report's message and
/// metadata are formatted only when the sink reads them, so a sink that counts or filters by name
/// stays cheap.
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
        lines(to: FileHandle.standardError, minimumLevel: minimumLevel) { $0.line }
    }

    /// Writes one JSON object per line to `handle`: `{"label":…,"level":…,"message":…,"metadata":{…},"name":…}`.
    public static func jsonLines(to handle: FileHandle, minimumLevel: Report.Level = .trace) -> Reporter {
        lines(to: handle, minimumLevel: minimumLevel) { report in
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
        to handle: FileHandle, minimumLevel: Report.Level, format: @escaping @Sendable (Report) -> String
    ) -> Reporter {
        let writer = LineWriter(handle: handle)
        return Reporter(minimumLevel: minimumLevel) { report in
            writer.write(format(report) + "\n")
        }
    }
}

/// Serialises writes to one file handle.
private final class LineWriter: Sendable {
    private let handle: Locked<FileHandle>

    init(handle: FileHandle) { self.handle = Locked(handle) }

    func write(_ line: String) {
        handle.withLock { $0.write(Data(line.utf8)) }
    }
}
