/// Limits how often frames are drawn: at most one per `minimumInterval` (1/60 s by default).
public struct FramePacer: Hashable, Sendable {
    /// The shortest time between two frames.
    public var minimumInterval: Duration

    /// A pacer allowing at most `framesPerSecond` frames a second.
    public init(framesPerSecond: Int = 60) {
        minimumInterval = framesPerSecond > 0 ? .seconds(1) / framesPerSecond : .zero
    }

    /// A pacer with an explicit interval (`.zero`: no limit).
    public init(minimumInterval: Duration) {
        self.minimumInterval = max(.zero, minimumInterval)
    }

    /// How long a pending frame must still wait, given the time since the last frame (nil: none drawn yet).
    /// Zero means draw now.
    public func delay(sinceLastFrame elapsed: Duration?) -> Duration {
        guard let elapsed else { return .zero }
        return max(.zero, minimumInterval - elapsed)
    }
}
