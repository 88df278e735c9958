/// What is drawn over the active screen, taking the keys until it is closed.
package enum Overlay: Hashable, Sendable {
    /// Every key of the dashboard and of the active screen (`?`; `Esc` closes it).
    case help
}
