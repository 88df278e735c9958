import SeedModels
import TerminalUI

/// What `y` copies to the clipboard (through OSC 52, ``ClipboardCopy``) and how the status line says so: on the
/// Transfers screen the selected transfer's error when it failed, its canonical state while states show as
/// canonical text (`v`), else its path.
package struct Yank: Hashable, Sendable {
    /// The text copied.
    package var text: String
    /// What it is, for the status line: `the path of photos.tar`.
    package var what: String

    /// A copy of `text`, described as `what`.
    package init(text: String, what: String) {
        self.text = text
        self.what = what
    }

    /// What `y` copies on the Transfers screen; nil without a selected transfer.
    package static func selected(in transfers: TransfersScreenState) -> Yank? {
        guard transfers.rows.indices.contains(transfers.selected) else { return nil }
        let row = transfers.rows[transfers.selected]
        let name = ConfigText.escaped(row.name)
        if case .failed(let message) = row.model.phase {
            return Yank(text: message, what: "the error of \(name)")
        }
        if transfers.showsCanonical {
            return Yank(text: row.stateText, what: "the state of \(name)")
        }
        return Yank(text: row.name, what: "the path of \(name)")
    }

    /// What `y` copies in `state`: the Transfers screen's selection while it is shown, nothing elsewhere or when
    /// the configuration turned copying off (`[clipboard] osc52 = false`).
    package static func of(_ state: AppState) -> Yank? {
        guard state.settings.yanks, state.overlay == nil, state.screen == .transfers else { return nil }
        return selected(in: state[TransfersFeature.self])
    }

    /// The status line while a copy is shown.
    package var status: String { "copied \(what) to the clipboard" }
}
