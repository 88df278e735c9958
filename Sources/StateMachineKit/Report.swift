/// One thing a machine wants its owner to know: an invalid event, a stale event, cancelled work….
///
/// Shaped like a swift-log message so that a `Reporter` can forward it to a logger unchanged.
public struct Report: Sendable, Hashable, Codable {
    /// Severity, with swift-log's seven levels in increasing order.
    public enum Level: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        /// Every event, for tracing a machine step by step.
        case trace
        /// Detail that helps while debugging (cancelled work, timeouts).
        case debug
        /// Normal, noteworthy operation.
        case info
        /// Expected but worth noting (a stale event dropped by design).
        case notice
        /// Something looks wrong but the machine carries on.
        case warning
        /// Something that should be impossible happened (an invalid event).
        case error
        /// The machine cannot carry on.
        case critical

        /// Position in the order trace < debug < … < critical.
        var rank: Int {
            switch self {
            case .trace: 0
            case .debug: 1
            case .info: 2
            case .notice: 3
            case .warning: 4
            case .error: 5
            case .critical: 6
            }
        }

        /// Orders levels by severity.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }

    /// The label of the machine that reported.
    public var label: String
    /// How severe the report is.
    public var level: Level
    /// A stable name such as `statemachine.invalid`, for filtering and counting.
    public var name: String
    /// A readable sentence.
    public var message: String
    /// Structured detail: `state`, `event`, `visit`, `reason`, `cause`, ….
    public var metadata: [String: String]

    /// Creates a report.
    public init(label: String, level: Level, name: String, message: String, metadata: [String: String] = [:]) {
        self.label = label
        self.level = level
        self.name = name
        self.message = message
        self.metadata = metadata
    }
}

extension Report {
    /// The report's names the engine uses.
    public enum Name {
        /// An event the transition function called impossible (error level).
        public static let invalid = "statemachine.invalid"
        /// An event from a `Sender` whose visit had ended (notice level).
        public static let staleEvent = "statemachine.stale_event"
        /// An event the transition function ignored (trace level).
        public static let ignored = "statemachine.ignored"
        /// `whileIn` work cancelled, with its cause (debug level).
        public static let cancelled = "statemachine.cancelled"
        /// A state timeout fired, or expired after its visit (debug level).
        public static let timeout = "statemachine.timeout"
        /// An accepted event: moved, updated or stayed (trace level).
        public static let transition = "statemachine.transition"
        /// An event the transition function postponed (debug level).
        public static let postponed = "statemachine.postponed"
        /// A postponed event dropped because `postponeLimit` events were already waiting (warning level).
        public static let postponeOverflow = "statemachine.postpone_overflow"
    }

    /// One readable line: `error turnstile statemachine.invalid: message [event=coin state=locked]`.
    public var line: String {
        var text = "\(level.rawValue) \(label) \(name): \(message)"
        if !metadata.isEmpty {
            let pairs = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            text += " [" + pairs.joined(separator: " ") + "]"
        }
        return text
    }
}
