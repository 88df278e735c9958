import SeedModels
import TerminalUI

extension PresentedPhase {
    /// The one colour of each kind of phase on every screen; the words say the phase too, so nothing is
    /// lost without colour.
    package var style: Style {
        switch self {
        case .idle: .plain
        case .active: Style(foreground: .green)
        case .paused: Style(foreground: .yellow)
        case .done: Style(foreground: .cyan)
        case .failed: Style(foreground: .red, attributes: .bold)
        }
    }
}

extension StatePresentation {
    /// The words in their phase's colour.
    package var line: Line { Line(text, style: phase.style) }
}
