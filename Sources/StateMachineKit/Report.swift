import Synchronization

/// One thing a machine wants its owner to know: an invalid event, a stale event, cancelled work….
///
/// Shaped like a swift-log message so that a `Reporter` can forward it to a logger unchanged.
public struct Report: Sendable {
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
    /// The sentence and the metadata: given, or made when read.
    @usableFromInline var text: Text

    /// A readable sentence.
    public var message: String {
        get { text.made.message }
        set { text = .given(message: newValue, metadata: metadata) }
    }

    /// Structured detail: `state`, `event`, `visit`, `reason`, `cause`, ….
    public var metadata: [String: String] {
        get { text.made.metadata }
        set { text = .given(message: message, metadata: newValue) }
    }

    /// Creates a report.
    public init(label: String, level: Level, name: String, message: String, metadata: [String: String] = [:]) {
        self.label = label
        self.level = level
        self.name = name
        self.text = .given(message: message, metadata: metadata)
    }

    /// Creates a report whose message and metadata are made by `describe` only when a sink reads either,
    /// so that a sink that counts reports or filters them by name never pays for formatting.
    public init(
        label: String, level: Level, name: String,
        describe: @escaping @Sendable () -> (message: String, metadata: [String: String])
    ) {
        self.init(label: label, level: level, name: name, text: MadeOnce(DescribedText(describe: describe)))
    }

    /// Creates a report whose message and metadata `text` makes when a sink reads either (a ``MadeOnce``,
    /// so that they are made once whatever the sink reads).
    @inlinable
    init(label: String, level: Level, name: String, text: some ReportText) {
        self.label = label
        self.level = level
        self.name = name
        self.text = .deferred(text)
    }
}

/// What a report's message and metadata are made from, kept as values until a sink reads them.
@usableFromInline
protocol ReportText: Sendable {
    /// The message and metadata, made on every call.
    func made() -> (message: String, metadata: [String: String])
}

/// A report's message and metadata, made from `Source` the first time a sink reads either and kept: a sink
/// that reads ``Report/line``, then ``Report/message`` and ``Report/metadata`` formats the report once.
///
/// A lock, not a check-then-set, because a sink may hand the report to other threads that read it at once;
/// uncontended, it costs two atomic operations per read. The engine fills the box of a recorded event's report
/// under its lock, when it notes the event, and hands that box to the report; the box of a report no sink kept
/// is filled again for a later one, so keeping what was made costs no allocation per report.
@usableFromInline
final class MadeOnce<Source: ReportText>: ReportText {
    /// The values the text is made from until a sink reads it; what was made from then on.
    @usableFromInline
    enum Content: Sendable {
        case source(Source)
        case made(message: String, metadata: [String: String])
        /// Between two reports of a reused box (``empty()``, ``fill(with:)``): never seen by a sink.
        case empty
    }

    @usableFromInline let content: Mutex<Content>

    @inlinable
    init(_ source: consuming Source) { content = Mutex(.source(source)) }

    /// The message and metadata, made on the first call.
    @usableFromInline
    func made() -> (message: String, metadata: [String: String]) {
        content.withLock { content in
            switch content {
            case .made(let message, let metadata):
                return (message, metadata)
            case .source(let source):
                let made = source.made()
                content = .made(message: made.message, metadata: made.metadata)
                return made
            case .empty:
                preconditionFailure("Internal inconsistency: a report's text was read from an emptied box")
            }
        }
    }

    /// Makes the box hold `source`, unmade: only for a box nobody else references. What it held is destroyed
    /// here; a caller holding a lock empties the box first (``empty()``) unless destroying that runs no code.
    @inlinable
    func fill(with source: consuming Source) {
        var content = Content.source(source)
        self.content.withLock { swap(&$0, &content) }
    }

    /// Empties the box for reuse (``fill(with:)``): only for a box nobody else references; what it held is
    /// destroyed here.
    @inlinable
    func empty() {
        var content = Content.empty
        self.content.withLock { swap(&$0, &content) }
    }

    /// The values the text is made from, while it is not made yet.
    @inlinable
    var source: Source? {
        content.withLock { content in
            switch content {
            case .source(let source): source
            case .made, .empty: nil
            }
        }
    }
}

/// The text of a report made by a closure the reporting code gave.
struct DescribedText: ReportText {
    let describe: @Sendable () -> (message: String, metadata: [String: String])

    func made() -> (message: String, metadata: [String: String]) { describe() }
}

extension Report {
    /// A report's sentence and metadata: given at once, or made on demand from the values they describe.
    @usableFromInline
    enum Text: Sendable {
        case given(message: String, metadata: [String: String])
        /// Made when a sink first reads the message or the metadata, and kept (a ``MadeOnce``).
        case deferred(any ReportText)

        var made: (message: String, metadata: [String: String]) {
            switch self {
            case .given(let message, let metadata): (message, metadata)
            case .deferred(let text): text.made()
            }
        }
    }
}

extension Report: Hashable {
    /// Reports are equal when every field, message and metadata included, is.
    public static func == (lhs: Report, rhs: Report) -> Bool {
        lhs.label == rhs.label && lhs.level == rhs.level && lhs.name == rhs.name && lhs.message == rhs.message
            && lhs.metadata == rhs.metadata
    }

    /// Hashes every field, message and metadata included.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(label)
        hasher.combine(level)
        hasher.combine(name)
        hasher.combine(message)
        hasher.combine(metadata)
    }
}

extension Report: Codable {
    private enum CodingKeys: String, CodingKey {
        case label, level, name, message, metadata
    }

    /// Decodes `{"label":…,"level":…,"message":…,"metadata":{…},"name":…}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            label: try container.decode(String.self, forKey: .label),
            level: try container.decode(Level.self, forKey: .level),
            name: try container.decode(String.self, forKey: .name),
            message: try container.decode(String.self, forKey: .message),
            metadata: try container.decode([String: String].self, forKey: .metadata))
    }

    /// Encodes the five fields, the message and metadata made if they were deferred.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encode(level, forKey: .level)
        try container.encode(name, forKey: .name)
        try container.encode(message, forKey: .message)
        try container.encode(metadata, forKey: .metadata)
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
        let (message, metadata) = text.made
        var text = "\(level.rawValue) \(label) \(name): \(message)"
        if !metadata.isEmpty {
            let pairs = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            text += " [" + pairs.joined(separator: " ") + "]"
        }
        return text
    }
}
