import SeedModels

/// A command line that cannot be run as written: the message names the cause, and the command it
/// concerns (when known) supplies the usage line printed after it. Exit status 2.
package struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, e.g. `unknown option '--fromat'`.
    package var message: String
    /// The subcommand being parsed, or nil for the top level.
    package var command: String?

    /// A usage error about `command` (nil: the top level).
    package init(_ message: String, command: String? = nil) {
        // Each site quotes words through quote(_:); this bound holds for any that does not.
        self.message = CanonicalValue.excerpt(message, limit: 4 * CanonicalValue.excerptLength)
        self.command = command
    }

    /// A word of the command line as a message quotes it: in single quotes, at most
    /// ``CanonicalValue/excerptLength`` characters of it.
    package static func quote(_ word: some StringProtocol) -> String {
        "'" + CanonicalValue.excerpt(String(word)) + "'"
    }

    /// The message.
    package var description: String { message }
}
