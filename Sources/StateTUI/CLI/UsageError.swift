/// A command line that cannot be run as written: the message names the cause, and the command it
/// concerns (when known) supplies the usage line printed after it. Exit status 2.
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, e.g. `unknown option '--fromat'`.
    public var message: String
    /// The subcommand being parsed, or nil for the top level.
    public var command: String?

    /// A usage error about `command` (nil: the top level).
    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// The message.
    public var description: String { message }
}
