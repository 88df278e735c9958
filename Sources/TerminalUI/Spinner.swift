/// A spinner's frames; which one shows is a pure function of a frame number (the caller's tick count).
public enum Spinner {
    /// The braille frames, one cell wide each.
    public static let frames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// The frame for tick `number` (any integer, negative included; wraps around).
    public static func frame(_ number: Int) -> String {
        let count = frames.count
        return frames[((number % count) + count) % count]
    }
}
