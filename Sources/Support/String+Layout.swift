extension StringProtocol {
    /// The text with spaces added at its end up to `width` characters, or cut to `width` when longer (what
    /// Foundation's `padding(toLength:withPad:startingAt:)` does for a pad of one space).
    package func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : String(self) + String(repeating: " ", count: width - count)
    }

    /// The text without the whitespace (spaces, tabs, line ends) at its start and end.
    package func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
