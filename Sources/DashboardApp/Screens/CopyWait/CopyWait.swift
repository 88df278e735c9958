import FileTransfer
import TerminalUI

/// What `statetui copy`'s dashboard shows before its copies exist, while another `statetui copy` writes into a
/// destination directory: which journal it waits for and which process holds it. The copy starts (the
/// dashboard opens) once the other run is done; `q` or Ctrl-C gives up with nothing copied.
///
/// A small app of its own, Model-Update-View like the dashboard: the state says what is awaited, the driver
/// (``InteractiveCopy`` in the command line) sends ``Action/waiting(journal:holder:)`` for each busy journal
/// and ``Action/ready`` once the session holds every lock.
package enum CopyWait {
    /// Where the wait stands.
    package enum State: Hashable, Sendable {
        /// Waiting for the lock of `journal` (its path), held by the process `holder` (nil: unknown).
        case waiting(journal: String, holder: Int32?)
        /// Every lock is held: the dashboard can open.
        case ready
        /// The user gave up waiting: `q` (``ExitReason/quit``) or Ctrl-C (``ExitReason/interrupted``).
        case gaveUp(ExitReason)
    }

    /// What happens to the wait.
    package enum Action: Hashable, Sendable {
        /// The session found `journal` locked by `holder` and waits for it.
        case waiting(journal: String, holder: Int32?)
        /// The session holds every lock.
        case ready
        /// The user gives up (`q`, Ctrl-C).
        case giveUp(ExitReason)
        /// The terminal changed size: nothing to do but draw again.
        case resize
    }

    /// Applies an action; a wait that ended stays ended.
    package static func reduce(_ state: inout State, _ action: Action) {
        guard case .waiting = state else { return }
        switch action {
        case .waiting(let journal, let holder): state = .waiting(journal: journal, holder: holder)
        case .ready: state = .ready
        case .giveUp(let reason): state = .gaveUp(reason)
        case .resize: break
        }
    }

    /// `q` gives up, Ctrl-C interrupts, a resize redraws; every other key does nothing.
    package static func keymap(_ key: Key, _ state: State) -> Action? {
        let actions: [Key: Action] = [
            .character("q"): .giveUp(.quit), .controlC: .giveUp(.interrupted), .resize: .resize,
        ]
        return actions[key]
    }

    /// Whether the wait is over.
    package static func isFinished(_ state: State) -> Bool {
        switch state {
        case .waiting: false
        case .ready, .gaveUp: true
        }
    }

    /// The keys the help bar offers.
    static let help = [KeyHelp("q", "stop waiting (nothing is copied)")]

    /// The screen: the dashboard's frame titled "Waiting", saying for what and for whom, and the help bar.
    package static func view(_ state: State, size: Size) -> Canvas {
        var canvas = Canvas(size: size)
        let parts = Rect(size: size).rows([.fixed(1), .fill, .fixed(1)])
        Line("statetui copy", style: .bold).render(in: parts[0], on: &canvas)
        let frame = Panel(title: "Waiting")
        frame.render(in: parts[1], on: &canvas)
        Paragraph(lines(state)).render(in: frame.inner(parts[1]), on: &canvas)
        canvas.render(KeyHelpBar(items: help), in: parts[2])
        return canvas
    }

    /// The frame's text for `state`; the journal's path is shown escaped (it came from the command line).
    static func lines(_ state: State) -> [Line] {
        switch state {
        case .waiting(let journal, let holder):
            [
                Line([Span("Waiting for "), Span(DisplayText.escaped(journal), style: .bold)]),
                Line(
                    "Another statetui copy (\(holder.map { "pid \($0)" } ?? "another process")) writes into that "
                        + "directory."),
                "",
                Line("The copy starts as soon as it is done; nothing is written meanwhile.", style: .dim),
            ]
        case .ready:
            [Line("Starting the copy…")]
        case .gaveUp:
            [Line("Stopped waiting.")]
        }
    }

    /// The app over `updates` (the session's ``Action/waiting(journal:holder:)`` and ``Action/ready``), starting
    /// at `initial`.
    package static func app(
        _ initial: State, updates: some AsyncSequence<Action, Never> & Sendable
    ) -> App<State, Action, Never> {
        App(
            initialState: initial,
            reduce: { state, action in
                reduce(&state, action)
                return []
            },
            view: view, keymap: keymap, isFinished: isFinished,
            subscriptions: [Subscription(updates, newestOnly: false) { $0 }])
    }
}
