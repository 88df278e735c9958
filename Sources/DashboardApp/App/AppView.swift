import TerminalUI

/// Draws the dashboard: the tab bar on the first row, the active screen in its frame (a ``Panel`` titled
/// with the screen's title), the help bar on the last row and any overlay on top. Below ``minimumSize`` only a message saying so. Pure: the same state and size always
/// give the same canvas.
package enum AppView {
    /// The smallest terminal the dashboard lays itself out in.
    package static let minimumSize = Size(width: 40, height: 12)

    /// The message shown below ``minimumSize``.
    package static let tooSmallMessage = "terminal too small (need 40×12)"

    /// The screen for `state` at `size`.
    package static func render(_ state: AppState, size: Size) -> Canvas {
        var canvas = Canvas(size: size)
        guard size.width >= minimumSize.width, size.height >= minimumSize.height else {
            renderTooSmall(asking: state.overlay == .confirmQuit, on: &canvas)
            return canvas
        }
        let parts = parts(size)
        canvas.render(tabBar(state.screens, selected: state.screen, width: size.width), in: parts[0])
        renderScreen(state, size: size, on: &canvas)
        switch state.overlay {
        case .help?:
            let help = helpLayout(state, size: size)
            help.modal.render(ScrollView(lines: help.lines, offset: state.helpOffset), in: help.area, on: &canvas)
        case .confirmQuit?:
            let lines = quitQuestion(state)
            let modal = Modal(title: "Quit?", fitting: Size(width: lines.map(\.width).max() ?? 0, height: lines.count))
            modal.render(ScrollView(lines: lines, offset: 0), in: parts[1], on: &canvas)
        case nil:
            break
        }
        if let yank = state.yank.content {
            canvas.render(Paragraph([Line(yank.status, style: .bold)]), in: parts[2])
        } else {
            canvas.render(KeyHelpBar(items: Keymap.barHelp(state, size: size)), in: parts[2])
        }
        state.settings.theme.recolor(&canvas)
        return canvas
    }

    /// What `q` asks while copies run.
    static func quitQuestion(_ state: AppState) -> [Line] {
        let underWay = AppReducer.progress(state)
        let what =
            switch underWay {
            case .none: "No copy is running any more."
            case .paused: "Copies are paused, not finished."
            case .percent, .indeterminate, .error: "Copies are still running."
            }
        return [
            Line(what), Line("Quitting stops them; the same command continues them later."), "",
            Line([Span("y", style: .bold), Span(" quit · "), Span("n", style: .bold), Span(" stay")]),
        ]
    }

    /// The rows of a screen of `size`: the tab bar, the active screen's frame, the help bar.
    static func parts(_ size: Size) -> [Rect] {
        Rect(size: size).rows([.fixed(1), .fill, .fixed(1)])
    }

    /// The frame every screen is drawn in, titled `title`: the same border and padding on every screen.
    package static func frame(title: String) -> Panel {
        Panel(title: title)
    }

    /// The area a screen draws its content in at `size`: inside the frame of the screen's rows. The view,
    /// the keymap's ``KeyContext/area`` (clicks, the wheel, paging by the drawn height) and every other
    /// size-dependent reading ask this one function.
    static func contentArea(_ size: Size) -> Rect {
        frame(title: "").inner(parts(size)[1])
    }

    /// The tab bar: each of `screens` by number, the selected one highlighted.
    /// When the titles do not fit in `width`, only the selected tab keeps its title.
    static func tabBar(_ screens: [Screen], selected: Screen, width: Int) -> TabBar {
        let fullWidth = screens.enumerated().reduce(screens.count - 1) {
            $0 + DisplayWidth.of(TabBar.label($1.element.title, index: $1.offset))
        }
        return TabBar(
            titles: screens.map { fullWidth <= width || $0 == selected ? $0.title : "" },
            selected: screens.firstIndex(of: selected) ?? 0)
    }

    /// The active screen at `size`: its frame, titled with the screen's title, on the screen's rows, and its
    /// content drawn by its registration (``Screen/registered``) in ``contentArea(_:)``.
    static func renderScreen(_ state: AppState, size: Size, on canvas: inout Canvas) {
        canvas.render(frame(title: state.screen.title), in: parts(size)[1])
        state.screen.registered.view(state, contentArea(size), &canvas)
    }

    /// The help overlay at `size`: every key of every screen (the active screen first, its keys one a line),
    /// then the app-wide ones; the other screens' keys are wrapped in a few lines each so everything fits
    /// 80×24. Where it does not fit, the modal's body scrolls (from ``AppState/helpOffset``).
    static func helpLayout(_ state: AppState, size: Size) -> (modal: Modal, lines: [Line], area: Rect) {
        let box = parts(size)[1]
        let textWidth = max(10, min(76, box.width - 4))
        var lines: [Line] = []
        let order = [state.screen] + state.screens.filter { $0 != state.screen }
        for screen in order {
            let keys = Keymap.bindings(for: screen, in: state).allHelp(in: state)
            guard !keys.isEmpty else { continue }
            lines.append(Line(screen == state.screen ? "\(screen.title) (this screen)" : screen.title, style: .bold))
            lines += wrapKeys(keys, width: textWidth)
        }
        lines.append(Line("Everywhere", style: .bold))
        lines += wrapKeys(Keymap.globalHelp(in: state), width: textWidth)
        let contentWidth = lines.map(\.width).max() ?? 0
        return (Modal(title: "Help", fitting: Size(width: contentWidth, height: lines.count)), lines, box)
    }

    /// `key label · key label …` broken into lines of at most `width` columns, an entry never split.
    static func wrapKeys(_ keys: [KeyHelp], width: Int) -> [Line] {
        var lines: [Line] = []
        var spans: [Span] = []
        var used = 0
        for key in keys {
            let entry = DisplayWidth.of(key.text)
            let separator = spans.isEmpty ? 0 : DisplayWidth.of(KeyHelpBar.separator)
            if !spans.isEmpty && used + separator + entry > width {
                lines.append(Line(spans))
                spans = []
                used = 0
            }
            if !spans.isEmpty { spans.append(Span(KeyHelpBar.separator)) }
            spans += [Span(key.key, style: .bold), Span(" " + key.label)]
            used += (spans.count > 2 ? DisplayWidth.of(KeyHelpBar.separator) : 0) + entry
        }
        if !spans.isEmpty { lines.append(Line(spans)) }
        return lines
    }

    /// What the too-small screen asks after `q` while copies run (``Keymap/whileTooSmall(_:in:size:)``).
    package static let tooSmallQuitQuestion = "copies are running: y quits, n stays"

    /// The too-small message (and the question whether to quit, while `asking`), wrapped at spaces to the width
    /// and cut to the height; never fails, even at 1×1.
    static func renderTooSmall(asking: Bool = false, on canvas: inout Canvas) {
        let width = canvas.size.width
        // The question first: on a screen too small for both, it is what a key now answers.
        let lines = (asking ? wrap(tooSmallQuitQuestion, width: width) : []) + wrap(tooSmallMessage, width: width)
        let top = max(0, (canvas.size.height - lines.count) / 2)
        for (index, text) in lines.prefix(canvas.size.height).enumerated() {
            Line(text, alignment: .center).render(in: canvas.bounds.row(top + index), on: &canvas)
        }
    }

    /// `text` broken at spaces into lines of at most `width` columns (a longer word gets a line of its own
    /// and is cut when drawn).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if DisplayWidth.of(candidate) <= width || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
