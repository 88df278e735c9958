import MachineDrivers
import SeedModels
import TerminalUI

/// The Upload screen (seed 001): reducer, keys, help and view. The machine is the authority: whether a key
/// applies is asked of ``UploadState/transition(_:_:)``, the reducer only asks the owner for actions
/// (effects) and shows what the machine's `states()` and records deliver.
package enum UploadFeature {
    /// Applies an action. A key becomes an intent the owner judges when it meets the machine (after the
    /// effects earlier keys asked for), never against this snapshot, which may not show what an earlier key
    /// sent yet (`s p` typed fast); a key whose event the transition function says does nothing then comes
    /// back as the function's reason (``UploadScreenAction/refused(_:)``). The fail switch is used up once the
    /// machine records a start or retry.
    package static func reduce(_ state: inout UploadScreenState, _ action: UploadScreenAction) -> [UploadScreenEffect] {
        switch action {
        case .start, .retry:
            return [.send(candidates(action, in: state.upload), fails: state.failNext)]
        case .pauseOrResume, .cancel:
            return [.send(candidates(action, in: state.upload), fails: false)]
        case .toggleFailNext:
            state.failNext.toggle()
            return []
        case .uploadChanged(let upload):
            if upload != state.upload { state.notice.clear() }
            state.upload = upload
            return []
        case .recordsChanged(let records):
            let starts = state.tally.newRecords(records).filter(\.event.beginsUpload)
            if starts.contains(where: { $0.outcome == .moved }) { state.failNext = false }
            state.tally.add(records)
            return []
        case .refused(let reason):
            state.notice.show(reason)
            return []
        case .noticeExpired(let notice):
            state.notice.expire(notice)
            return []
        }
    }

    /// The events a key stands for in `upload`, in the order they are tried: one key pauses or resumes. A
    /// start or retry names the next upload as far as the state tells; the owner numbers the real one.
    static func candidates(_ action: UploadScreenAction, in upload: UploadState) -> [UploadEvent] {
        switch action {
        case .start: [.start(upload: upload.nextUpload)]
        case .pauseOrResume: [.pause, .resume]
        case .cancel: [.cancel]
        case .retry: [.retry(upload: upload.nextUpload)]
        case .toggleFailNext, .uploadChanged, .recordsChanged, .refused, .noticeExpired: []
        }
    }

    /// The event `action` sends in `upload`: the first of its candidates the transition function applies.
    static func event(for action: UploadScreenAction, in upload: UploadState) -> UploadEvent? {
        EventRule.first(of: candidates(action, in: upload), in: upload, UploadState.transition)
    }

    /// A key that sends one of `action`'s events: offered in the bar (named for the event it would send now)
    /// while the transition function applies one; when pressed, the owner asks the function again when the
    /// intent meets the machine, and the screen shows its reason for a refusal.
    private static func machineKey(_ keys: [Key], _ action: UploadScreenAction, _ help: KeyHelp, bar: String)
        -> KeyBinding<UploadScreenState, UploadScreenAction>
    {
        KeyBinding(
            keys, action, help: help, judge: .machine,
            bar: { state in event(for: action, in: state.upload).map { KeyHelp(bar, label($0, in: state.upload)) } },
            applies: { event(for: action, in: $0.upload) != nil })
    }

    /// Every key of the screen, in the help bar's order: the same keys as the Transfers screen.
    package static let bindings: [KeyBinding<UploadScreenState, UploadScreenAction>] = [
        machineKey([.character("s")], .start, KeyHelp("s", "start"), bar: "s"),
        machineKey(
            [.character(" "), .character("p")], .pauseOrResume, KeyHelp("space/p", "pause or resume"), bar: "space/p"),
        machineKey([.character("c")], .cancel, KeyHelp("c", "cancel"), bar: "c"),
        machineKey([.character("r")], .retry, KeyHelp("r", "retry"), bar: "r"),
        KeyBinding(
            [.character("f")], .toggleFailNext, help: KeyHelp("f", "fail the next upload"),
            bar: { KeyHelp("f", $0.failNext ? "don't fail next" : "fail next") }),
    ]

    /// What the help bar calls a key sending `event`.
    private static func label(_ event: UploadEvent, in upload: UploadState) -> String {
        switch event {
        case .start: upload == .completed ? "start another" : "start"
        case .pause: "pause"
        case .resume: "resume"
        case .cancel: "cancel"
        case .retry: "retry"
        case .progress, .complete, .fail: "\(event)"
        }
    }

    /// Draws the screen: one case of the upload state each, exhaustively.
    package static func view(_ state: UploadScreenState, in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        let presentation = state.upload.presentation
        var lines: [Line] = [
            Line([Span("State ", style: .bold), Span(presentation.text, style: presentation.phase.style)]),
            Line(state.upload.description, style: .dim),
        ]
        var bar: ProgressBar?
        switch state.upload {
        case .idle:
            lines += ["No upload yet.", "", Line("[ Start ]", style: .bold)]
        case .uploading(_, let progress):
            lines.append(Line("Uploading… \(percent(progress))"))
            bar = ProgressBar(fraction: progress, trackStyle: .dim)
            lines += ["", Line("[ Pause ]  [ Cancel ]", style: .bold)]
        case .paused(_, let progress):
            lines.append(Line("Paused at \(percent(progress))"))
            bar = ProgressBar(fraction: progress, trackStyle: .dim)
            // Resume only where the model says it applies (seed 001's canResume).
            let controls = (state.upload.canResume ? "[ Resume ]  " : "") + "[ Cancel ]"
            lines += ["", Line(controls, style: .bold)]
        case .completed:
            lines += [Line("✓ Upload complete", style: .bold), "", Line("[ Start another ]", style: .bold)]
        case .failed(_, let category, let message, _):
            lines += [Line("✗ Upload failed: \(message) (\(category))", style: .bold)]
            lines += ["", Line((state.upload.canRetry ? "[ Retry ]  " : "") + "[ Cancel ]", style: .bold)]
        }
        lines.append("")
        lines.append(
            Line(
                "stale reports dropped: \(state.tally.stale) · invalid: \(state.tally.invalid)\(state.tally.missedNote)",
                style: state.tally.stale > 0 ? .bold : .dim))
        if state.failNext { lines.append(Line("The next upload will fail half way.", style: .dim)) }
        if let notice = state.notice.content { lines.append(Line("refused: \(notice)", style: .reverse)) }
        Paragraph(lines).render(in: area, on: &canvas)
        if let bar {
            // The bar sits on the row after the percentage (an empty line was left for it).
            let row = area.row(3)
            canvas.write("[", at: Point(x: row.x, y: row.y), clip: area)
            bar.render(in: row.inset(left: 1, right: 1), on: &canvas)
            canvas.write("]", at: Point(x: row.maxX - 1, y: row.y), clip: area)
        }
    }

    private static func percent(_ fraction: Double) -> String {
        "\(Int((fraction * 100).rounded()))%"
    }
}
