import SeedModels
import Support

/// What the runtime measured when a transfer's machine published a state: the time on the machine's own
/// (injected) clock, the visit the state belongs to and the timeout armed in it. Views never read a clock;
/// these samples are the only time they see.
package struct TransferSample: Hashable, Sendable {
    /// When the state was seen, as the offset on the machine's clock.
    package var at: Duration
    /// The machine's visit at that moment.
    package var visit: Int
    /// The time left on the state timeout armed in that visit, if any.
    package var timeout: Duration?

    /// A sample taken at `at` during `visit`, with `timeout` left on its armed timeout.
    package init(at: Duration, visit: Int, timeout: Duration? = nil) {
        self.at = at
        self.visit = visit
        self.timeout = timeout
    }
}

/// The recent progress of one request, to measure its rate: a bounded window of (time, percent) points,
/// started over whenever another request runs or the transfer stops running.
package struct ProgressWindow: Hashable, Sendable {
    /// One point: the percent seen at a time.
    package struct Point: Hashable, Sendable {
        /// When, on the machine's clock.
        package var at: Duration
        /// The percent then.
        package var percent: Int
    }

    /// How many points the window keeps.
    package static let capacity = 8
    /// The request the points belong to; nil when none runs.
    package private(set) var request: Int?
    /// The points, oldest first, at most ``capacity``.
    package private(set) var points: [Point] = []

    /// An empty window.
    package init() {}

    /// Takes in `phase` seen at `at`: a running request's percent is added (a new request starts the window
    /// over); any other phase empties it.
    package mutating func add(_ phase: TransferState, at: Duration) {
        guard case .running(let running, let percent) = phase else {
            self = ProgressWindow()
            return
        }
        if running != request { self = ProgressWindow() }
        request = running
        if let last = points.last, last.percent == percent || last.at > at { return }
        points.append(Point(at: at, percent: percent))
        if points.count > Self.capacity { points.removeFirst(points.count - Self.capacity) }
    }

    /// Bytes per second over the window for a file of `totalBytes`; nil with fewer than two points, no time
    /// between them or no size.
    package func rate(totalBytes: Int64?) -> Double? {
        guard let totalBytes, totalBytes > 0, let first = points.first, let last = points.last else { return nil }
        let seconds = (last.at - first.at).inSeconds
        guard seconds > 0, last.percent > first.percent else { return nil }
        return Double(totalBytes) * Double(last.percent - first.percent) / 100 / seconds
    }
}

/// The figures of the Transfers columns as text: sizes (`1.5 MB`), rates (`820 KB/s`), durations (`1:05`,
/// `2h05m`). Pure; the widths stay within the columns they go in.
package enum TransferFigures {
    /// `bytes` in the largest unit that keeps it at least 1 (decimal units, one decimal below 10).
    package static func size(_ bytes: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB", "PB"]
        var value = Double(max(0, bytes))
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(Int(value)) B" }
        let digits = value < 10 ? (value * 10).rounded(.down) / 10 : value.rounded(.down)
        return value < 10 ? "\(digits) \(units[unit])" : "\(Int(digits)) \(units[unit])"
    }

    /// A rate in bytes per second: `820 KB/s`.
    package static func rate(_ bytesPerSecond: Double) -> String {
        guard bytesPerSecond.isFinite, bytesPerSecond >= 0 else { return "–" }
        return size(Int64(min(bytesPerSecond, Double(Int64.max / 2)))) + "/s"
    }

    /// A duration of whole seconds: `0:42`, `12:05`, `2h05m`, `>99h`.
    package static func duration(seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "–" }
        guard seconds < 360_000 else { return ">99h" }
        let whole = Int(seconds.rounded(.up))
        if whole >= 3600 { return "\(whole / 3600)h" + pad(whole % 3600 / 60) + "m" }
        return "\(whole / 60):" + pad(whole % 60)
    }

    /// `duration` as ``duration(seconds:)`` does.
    package static func duration(_ duration: Duration) -> String {
        self.duration(seconds: duration.inSeconds)
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
