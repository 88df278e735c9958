import FileTransfer
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

    /// The presentation with its words escaped for the terminal (``DisplayText/escaped(_:limit:)``): a state's
    /// words quote outside text, a copied file's path or an OS message, whose control characters and bytes
    /// that are not UTF-8 are shown (`\n`, `\u{1B}`, `\xFF`), as in the Name column and the headless lines,
    /// rather than dropped or shown as another name.
    package var escaped: StatePresentation { StatePresentation(phase, DisplayText.escaped(text)) }
}
