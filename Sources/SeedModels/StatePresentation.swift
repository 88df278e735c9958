/// The kind of phase a model is in, shared by every model so every screen colours a phase alike: a
/// running transfer, an upload in progress and a load in flight are all ``active``.
public enum PresentedPhase: Hashable, Sendable, CaseIterable {
    /// Nothing is happening.
    case idle
    /// Work is in progress.
    case active
    /// Work is held and can continue.
    case paused
    /// The work finished.
    case done
    /// The work failed.
    case failed
}

/// A model's state as a person reads it (`running · 29% · request #1`, `failed · offline — r retries`):
/// the phase for its colour and the words. The canonical text stays available from the model itself.
public struct StatePresentation: Hashable, Sendable {
    /// The kind of phase, for the colour.
    public var phase: PresentedPhase
    /// The words, parts joined by ` · `.
    public var text: String

    /// A presentation of `phase` reading `text`.
    public init(_ phase: PresentedPhase, _ text: String) {
        self.phase = phase
        self.text = text
    }

    /// A presentation whose words are `parts` joined by ` · `.
    init(_ phase: PresentedPhase, parts: [String]) {
        self.init(phase, parts.joined(separator: " · "))
    }

    /// `fraction` (0…1, clamped; not finite reads 0) as a whole percent: `29%`.
    static func percent(_ fraction: Double) -> String {
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        return "\(Int((clamped * 100).rounded()))%"
    }

    /// A failure's words: the message and the key that retries.
    static func failure(_ message: String) -> String {
        "\(message.isEmpty ? "failed" : message) — r retries"
    }
}

/// A model's state that a person can read as words (``StatePresentation``): what the screens show in place of
/// the canonical text, which stays one key away.
public protocol PresentableState {
    /// The state as a person reads it.
    var presentation: StatePresentation { get }
}

extension TransferModel: PresentableState {}
extension UploadState: PresentableState {}
extension LoadState: PresentableState {}

extension TransferModel {
    /// The transfer as a person reads it: `running · 29% · request #1`, `paused · 40% · request #2`,
    /// `completed · photos.tar`, `failed at 40% · offline — r retries`, `idle` (or `idle · after request #3`
    /// once a request was cancelled).
    public var presentation: StatePresentation {
        switch phase {
        case .idle:
            StatePresentation(.idle, parts: lastRequest == 0 ? ["idle"] : ["idle", "after request #\(lastRequest)"])
        case .running(let request, let percent):
            StatePresentation(.active, parts: ["running", "\(percent)%", "request #\(request)"])
        case .paused(let request, let percent):
            StatePresentation(.paused, parts: ["paused", "\(percent)%", "request #\(request)"])
        case .completed(let file):
            StatePresentation(.done, parts: ["completed", file])
        case .failed(let message):
            StatePresentation(
                .failed,
                parts: [retainedPercent.map { "failed at \($0)%" } ?? "failed", StatePresentation.failure(message)])
        }
    }
}

extension UploadState {
    /// The upload as a person reads it: `uploading · 29%`, `paused · 40%`, `completed`,
    /// `failed · network · connection lost — r retries`, `failed · rejected · too large`, `idle`.
    public var presentation: StatePresentation {
        switch self {
        case .idle: StatePresentation(.idle, "idle")
        case .uploading(_, let progress):
            StatePresentation(.active, parts: ["uploading", StatePresentation.percent(progress)])
        case .paused(_, let progress):
            StatePresentation(.paused, parts: ["paused", StatePresentation.percent(progress)])
        case .completed: StatePresentation(.done, "completed")
        case .failed(_, let category, let message, _):
            // A rejected upload cannot be retried, so the hint is left out.
            StatePresentation(
                .failed,
                parts: ["failed", "\(category)", category.isRetryable ? StatePresentation.failure(message) : message])
        }
    }
}

extension LoadState {
    /// The load as a person reads it: `idle · nothing loaded`, `loading · first load`,
    /// `loading · 3 items kept`, `loaded · 3 items`, `failed · offline — r retries · 3 items kept`.
    public var presentation: StatePresentation {
        switch self {
        case .idle: StatePresentation(.idle, parts: ["idle", "nothing loaded"])
        case .loading(let previous):
            StatePresentation(.active, parts: ["loading", previous.map(Self.kept) ?? "first load"])
        case .loaded(let items): StatePresentation(.done, parts: ["loaded", Self.count(items)])
        case .failed(let message, let previous):
            StatePresentation(
                .failed,
                parts: ["failed", StatePresentation.failure(message)] + (previous.map { [Self.kept($0)] } ?? []))
        }
    }

    private static func count(_ items: [String]) -> String {
        items.count == 1 ? "1 item" : "\(items.count) items"
    }

    private static func kept(_ items: [String]) -> String {
        "\(count(items)) kept"
    }
}
