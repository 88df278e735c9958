/// Why the dashboard stopped, which decides the process's exit status.
package enum ExitReason: Hashable, Sendable {
    /// `q`: exit status 0.
    case quit
    /// Ctrl-C: exit status 130, as for an interrupted command.
    case interrupted

    /// The exit status the process ends with.
    package var status: Int32 {
        switch self {
        case .quit: 0
        case .interrupted: 130
        }
    }
}
