import DashboardApp
import SeedModels
import TerminalUI
import Testing

/// `y` copies the selected transfer's path, error or canonical state through OSC 52 and says so in the status
/// line; `[clipboard] osc52 = false` turns it off.
@Suite struct YankTests {
    typealias F = DashboardFixtures

    @Test func aFailedTransferYieldsItsError() {
        #expect(
            Yank.selected(in: F.screen(selected: F.row("failed")))
                == Yank(text: "simulated failure", what: "the error of notes.md"))
    }

    @Test func anotherTransferYieldsItsPathOrWithVItsCanonicalState() {
        var screen = F.screen(selected: F.row("running"))
        #expect(Yank.selected(in: screen) == Yank(text: "backup.img", what: "the path of backup.img"))
        screen.showsCanonical = true
        #expect(
            Yank.selected(in: screen)
                == Yank(text: "running(request: 1, percent: 20)", what: "the state of backup.img"))
    }

    @Test func aNameWithControlCharactersIsEscapedInTheStatusButCopiedAsItIs() {
        var screen = F.screen(selected: F.row("running"))
        screen.rows[screen.selected].name = "a\u{1B}[2Jb"
        #expect(Yank.selected(in: screen) == Yank(text: "a\u{1B}[2Jb", what: "the path of a\\u{1B}[2Jb"))
    }

    @Test func yCopiesOnTransfersOnlyAndNotWhenTurnedOff() {
        var state = F.app(selected: F.row("running"))
        let yank = Yank(text: "backup.img", what: "the path of backup.img")
        #expect(Keymap.action(for: .character("y"), in: state, size: DashboardFixtures.size) == .yank(yank))
        state.screen = .upload
        #expect(Keymap.action(for: .character("y"), in: state, size: DashboardFixtures.size) == nil)
        state.screen = .transfers
        state.settings.yanks = false
        #expect(Keymap.action(for: .character("y"), in: state, size: DashboardFixtures.size) == nil)
        state.settings.yanks = true
        state.overlay = .confirmQuit
        #expect(Keymap.action(for: .character("y"), in: state, size: DashboardFixtures.size) == .quitConfirmed)
    }

    @Test func theCopyIsShownUntilItExpiresAndEachCopyIsNew() {
        var state = F.app(selected: F.row("running"))
        let yank = Yank(text: "backup.img", what: "the path of backup.img")
        #expect(AppReducer.reduce(&state, .yank(yank)) == [])
        var expected = StatusLine<Yank>()
        expected.show(yank)
        #expect(state.yank == expected)
        let first = state.yank.message!
        _ = AppReducer.reduce(&state, .yank(yank))
        expected.show(yank)
        #expect(state.yank == expected)
        _ = AppReducer.reduce(&state, .yankExpired(first))
        #expect(state.yank.message?.number == 2)
        _ = AppReducer.reduce(&state, .yankExpired(state.yank.message!))
        #expect(state.yank.message == nil)
    }

    @Test func theStatusLineSaysWhatWasCopied() {
        var state = F.app(selected: F.row("running"))
        _ = AppReducer.reduce(&state, .yank(Yank(text: "backup.img", what: "the path of backup.img")))
        let canvas = AppView.render(state, size: Size(width: 80, height: 24))
        #expect(canvas.lines[23] == "copied the path of backup.img to the clipboard")
    }

    @Test func osc52CarriesTheTextInBase64() {
        #expect(ClipboardCopy(text: "hi\u{1B}é", number: 1).sequence == "\u{1B}]52;c;aGkbw6k=\u{07}")
        #expect(ClipboardCopy(text: "", number: 1).sequence == "\u{1B}]52;c;\u{07}")
    }

    @Test func aLongTextIsCutAtACharacter() {
        let text = String(repeating: "a", count: ClipboardCopy.maximumLength - 1) + "é"
        let cut = ClipboardCopy(text: text, number: 1).sequence
        let expected = ClipboardCopy(text: String(repeating: "a", count: ClipboardCopy.maximumLength - 1), number: 1)
        #expect(cut == expected.sequence)
    }
}
