/// A screen's status message: the one it shows, if any, until it is replaced, cleared, or
/// ``StatusExpiry/lifetime`` has passed. Every message shown gets the next number, so the same text shown
/// again is a new message with a timer of its own, and the expiry of an earlier one clears nothing.
package struct StatusLine<Content: Hashable & Sendable>: Hashable, Sendable {
    /// One message shown: what it says and its number among the messages of this line.
    package struct Message: Hashable, Sendable {
        /// What it says.
        package var content: Content
        /// Its number: 1 for the first message shown, then one more for each.
        package var number: Int
    }

    /// The message shown now.
    package private(set) var message: Message?
    /// How many messages were shown so far (bookkeeping for the numbers, not part of what is shown).
    private var shown = 0

    /// A line showing `content`, or nothing.
    package init(_ content: Content? = nil) {
        if let content { show(content) }
    }

    /// What the line says now.
    package var content: Content? { message?.content }

    /// Shows `content` as a new message, replacing the one shown.
    package mutating func show(_ content: Content) {
        shown += 1
        message = Message(content: content, number: shown)
    }

    /// Clears the line if it still shows `expired`; a later message stays.
    package mutating func expire(_ expired: Message) {
        if message == expired { message = nil }
    }

    /// Clears the line.
    package mutating func clear() {
        message = nil
    }

    /// Two lines are equal when they show the same message.
    package static func == (left: StatusLine, right: StatusLine) -> Bool {
        left.message == right.message
    }

    /// Hashes the message shown.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(message)
    }
}
