import ScreenStates
import TerminalUI

/// The Upload screen (seed 001): reducer, keys, help and view. The machine is the authority: the reducer
/// only asks the owner for actions (effects) and shows what the machine reports back.
public enum UploadFeature {
    /// Applies an action. Keys whose action the upload's transition function calls impossible now are not
    /// sent; the screen shows the reason instead.
    public static func reduce(_ state: inout UploadScreenState, _ action: UploadAction) -> [UploadEffect] {
        switch action {
        case .start:
            return request(.start, in: &state)
        case .pauseOrResume:
            return request(state.upload.canResume ? .resume : .pause, in: &state)
        case .cancel:
            return request(.cancel, in: &state)
        case .retry:
            return request(.retry, in: &state)
        case .toggleFailNext:
            state.failNext.toggle()
            return [.setFailNext(state.failNext)]
        case .uploadChanged(let upload):
            if upload != state.upload { state.notice = nil }
            state.upload = upload
            // Starting or retrying used the fail switch up.
            if case .uploading(let progress) = upload, progress == 0 { state.failNext = false }
            return []
        case .refused(let reason):
            state.notice = reason
            return []
        }
    }

    private static func request(_ event: UploadEvent, in state: inout UploadScreenState) -> [UploadEffect] {
        if case .invalid(let reason) = UploadState.transition(state.upload, event) {
            state.notice = reason
            return []
        }
        state.notice = nil
        return [.perform(event)]
    }

    /// The same keys as the Transfers screen: `s` start, space/`p` pause or resume, `c` cancel, `r` retry,
    /// `f` fail the next upload.
    public static func keymap(_ key: Key, _ state: UploadScreenState) -> UploadAction? {
        switch key {
        case .character("s"): .start
        case .character(" "), .character("p"): .pauseOrResume
        case .character("c"): .cancel
        case .character("r"): .retry
        case .character("f"): .toggleFailNext
        default: nil  // not a state switch: any other key does nothing here
        }
    }

    /// Every key of the screen, for the `?` overlay.
    public static let allKeys: [KeyHelp] = [
        KeyHelp("s", "start"), KeyHelp("space/p", "pause or resume"), KeyHelp("c", "cancel"),
        KeyHelp("r", "retry"), KeyHelp("f", "fail the next upload"),
    ]

    /// The keys that apply in the current state.
    public static func help(_ state: UploadScreenState) -> [KeyHelp] {
        var keys: [KeyHelp] = []
        switch state.upload {
        case .idle:
            keys.append(KeyHelp("s", "start"))
        case .uploading:
            keys += [KeyHelp("space/p", "pause"), KeyHelp("c", "cancel")]
        case .paused:
            keys += [KeyHelp("space/p", "resume"), KeyHelp("c", "cancel")]
        case .completed:
            keys.append(KeyHelp("s", "start another"))
        case .failed:
            keys.append(KeyHelp("r", "retry"))
        }
        keys.append(KeyHelp("f", state.failNext ? "don't fail next" : "fail next"))
        return keys
    }

    /// Draws the screen: one case of the upload state each, exhaustively.
    public static func view(_ state: UploadScreenState, in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        var lines: [Line] = [Line([Span("State ", style: .bold), Span(state.upload.description)]), ""]
        var bar: ProgressBar?
        switch state.upload {
        case .idle:
            lines += ["No upload yet.", "", Line("[ Start ]", style: .bold)]
        case .uploading(let progress):
            lines.append(Line("Uploading… \(percent(progress))"))
            bar = ProgressBar(fraction: progress, trackStyle: .dim)
            lines += ["", Line("[ Pause ]  [ Cancel ]", style: .bold)]
        case .paused(let progress):
            lines.append(Line("Paused at \(percent(progress))"))
            bar = ProgressBar(fraction: progress, trackStyle: .dim)
            // Resume only where the model says it applies (seed 001's canResume).
            let controls = (state.upload.canResume ? "[ Resume ]  " : "") + "[ Cancel ]"
            lines += ["", Line(controls, style: .bold)]
        case .completed:
            lines += [Line("✓ Upload complete", style: .bold), "", Line("[ Start another ]", style: .bold)]
        case .failed(let message):
            lines += [Line("✗ Upload failed: \(message)", style: .bold)]
            lines += ["", Line(state.upload.canRetry ? "[ Retry ]" : "", style: .bold)]
        }
        lines.append("")
        if state.failNext { lines.append(Line("The next upload will fail half way.", style: .dim)) }
        if let notice = state.notice { lines.append(Line("refused: \(notice)", style: .reverse)) }
        Paragraph(lines).render(in: area, on: &canvas)
        if let bar {
            // The bar sits on the row after the percentage (an empty line was left for it).
            let row = area.row(3).inset(right: area.width > 10 ? 2 : 0)
            canvas.write("[", at: Point(x: row.x, y: row.y), clip: area)
            bar.render(in: row.inset(left: 1, right: 1), on: &canvas)
            canvas.write("]", at: Point(x: row.maxX - 1, y: row.y), clip: area)
        }
    }

    private static func percent(_ fraction: Double) -> String {
        "\(Int((fraction * 100).rounded()))%"
    }
}
