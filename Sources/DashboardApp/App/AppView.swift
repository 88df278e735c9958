import TerminalUI

/// Draws the dashboard: the tab bar on the first row, the active screen, the help bar on the last row and
/// any overlay on top. Below ``minimumSize`` only a message saying so. Pure: the same state and size always
/// give the same canvas.
public enum AppView {
    /// The smallest terminal the dashboard lays itself out in.
    public static let minimumSize = Size(width: 40, height: 12)

    /// The message shown below ``minimumSize``.
    public static let tooSmallMessage = "terminal too small (need 40×12)"

    /// The screen for `state` at `size`.
    public static func render(_ state: AppState, size: Size) -> Canvas {
        var canvas = Canvas(size: size)
        guard size.width >= minimumSize.width, size.height >= minimumSize.height else {
            renderTooSmall(on: &canvas)
            return canvas
        }
        let parts = canvas.bounds.rows([.fixed(1), .fill, .fixed(1)])
        canvas.render(tabBar(selected: state.screen, width: size.width), in: parts[0])
        renderScreen(state, in: parts[1], on: &canvas)
        switch state.overlay {
        case .help?:
            renderHelp(state, in: canvas.bounds, on: &canvas)
            canvas.render(KeyHelpBar(items: [KeyHelp("esc", "close")] + Keymap.globalHelp.suffix(1)), in: parts[2])
        case nil:
            canvas.render(KeyHelpBar(items: screenHelp(state) + Keymap.globalHelp), in: parts[2])
        }
        return canvas
    }

    /// The area the active screen is drawn in at `size`: every row between the tab bar and the help bar.
    public static func screenArea(_ size: Size) -> Rect {
        Rect(size: size).rows([.fixed(1), .fill, .fixed(1)])[1]
    }

    /// The tab bar: every screen by number, the selected one highlighted, those without a feature dimmed.
    /// When the titles do not fit in `width`, only the selected tab keeps its title.
    static func tabBar(selected: Screen, width: Int) -> TabBar {
        let screens = Screen.allCases
        let fullWidth = screens.enumerated().reduce(screens.count - 1) {
            $0 + DisplayWidth.of(TabBar.label($1.element.title, index: $1.offset))
        }
        return TabBar(
            titles: screens.map { fullWidth <= width || $0 == selected ? $0.title : "" },
            selected: screens.firstIndex(of: selected) ?? 0,
            disabled: Set(screens.indices.filter { !screens[$0].isAvailable }))
    }

    /// The active screen's content.
    static func renderScreen(_ state: AppState, in area: Rect, on canvas: inout Canvas) {
        switch state.screen {
        case .transfers: TransfersFeature.view(state.transfers, in: area, on: &canvas)
        case .upload: UploadFeature.view(state.upload, in: area, on: &canvas)
        case .load: LoadFeature.view(state.load, in: area, on: &canvas)
        case .graph: GraphFeature.view(state.graph, in: area, on: &canvas)
        case .history: HistoryFeature.view(state.history, in: area, on: &canvas)
        }
    }

    /// The keys of the active screen that apply now.
    static func screenHelp(_ state: AppState) -> [KeyHelp] {
        switch state.screen {
        case .transfers: TransfersFeature.help(state.transfers)
        case .upload: UploadFeature.help(state.upload)
        case .load: LoadFeature.help(state.load)
        case .graph: GraphFeature.help(state.graph)
        case .history: HistoryFeature.help(state.history)
        }
    }

    /// Every key of the active screen, applicable now or not, for the help overlay.
    static func screenKeys(_ screen: Screen) -> [KeyHelp] {
        switch screen {
        case .transfers: TransfersFeature.keys
        case .upload: UploadFeature.allKeys
        case .load: LoadFeature.allKeys
        case .graph: GraphFeature.allKeys
        case .history: HistoryFeature.allKeys
        }
    }

    /// The help overlay: every key of every screen (the active screen first, its keys one a line), then the
    /// app-wide ones; the other screens' keys are wrapped in a few lines each so everything fits 80×24.
    static func renderHelp(_ state: AppState, in area: Rect, on canvas: inout Canvas) {
        let box = area.inset(top: 1, bottom: 1)
        let textWidth = max(10, min(76, box.width - 4))
        var lines: [Line] = []
        let order = [state.screen] + Screen.allCases.filter { $0 != state.screen }
        for screen in order {
            let keys = screenKeys(screen)
            guard !keys.isEmpty else { continue }
            lines.append(Line(screen == state.screen ? "\(screen.title) (this screen)" : screen.title, style: .bold))
            lines += wrapKeys(keys, width: textWidth)
        }
        lines.append(Line("Everywhere", style: .bold))
        lines += wrapKeys(Keymap.globalKeys, width: textWidth)
        let contentWidth = lines.map(\.width).max() ?? 0
        let modal = Modal(title: "Help", size: Size(width: contentWidth + 4, height: lines.count + 2))
        let inside = modal.render(in: box, on: &canvas)
        canvas.render(Paragraph(lines), in: inside.inset(left: 1, right: 1))
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

    /// The too-small message, wrapped at spaces to the width and cut to the height; never fails, even at 1×1.
    static func renderTooSmall(on canvas: inout Canvas) {
        let lines = wrap(tooSmallMessage, width: canvas.size.width)
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
