import TerminalUI
import Testing

/// The terminal's progress indicator: the bytes of each state, and the terminals that get them.
@Suite struct TerminalProgressTests {
    @Test(arguments: [
        (TerminalProgress.none, "0;0"), (.percent(42), "1;42"), (.percent(150), "1;100"), (.error(-5), "2;0"),
        (.error(60), "2;60"), (.indeterminate, "3;0"), (.paused(7), "4;7"),
    ])
    func eachStateIsOneOSCSequence(progress: TerminalProgress, fields: String) {
        #expect(progress.sequence == "\u{1B}]9;4;\(fields)\u{1B}\\")
    }

    @Test(arguments: [
        (["WT_SESSION": "9f2c"], true),
        (["ConEmuANSI": "ON"], true),
        (["ConEmuANSI": "OFF"], false),
        (["TERM_PROGRAM": "WezTerm"], true),
        (["TERM_PROGRAM": "ghostty", "TERM": "xterm-ghostty"], true),
        (["TERM_PROGRAM": "iTerm.app"], false),
        (["TERM_PROGRAM": "iTerm.app", "TERM_FEATURES": "T3LrMSc7UUw9Ts3BFGsSyHNoSxFP"], true),
        (["TERM_PROGRAM": "iTerm.app", "TERM_FEATURES": "T3LrPaMSc7"], false),
        (["PTYXIS_VERSION": "48.2"], true),
        (["PTYXIS_VERSION": "47.9"], false),
        (["TERM_PROGRAM": "Apple_Terminal"], false),
        (["TERM": "xterm-256color"], false),
        ([:], false),
        // Inside tmux or screen the outer terminal's variables leak in, but the sequence would not get out.
        (["WT_SESSION": "9f2c", "TMUX": "/tmp/tmux-1000/default,1,0"], false),
        (["TERM_PROGRAM": "WezTerm", "TERM": "tmux-256color"], false),
        (["WT_SESSION": "9f2c", "TERM": "screen-256color"], false),
        (["TERM_PROGRAM": "ghostty", "STY": "1234.pts-0.host"], false),
    ])
    func onlyTerminalsThatDocumentItShowTheIndicator(environment: [String: String], supported: Bool) {
        #expect(TerminalProgress.isSupported(environment: environment) == supported)
    }

    @Test func aHeadlessTerminalKeepsTheIndicatorUntilRestored() {
        let terminal = HeadlessTerminal(size: Size(width: 10, height: 2))
        #expect(terminal.progress == .none)
        terminal.showProgress(.percent(30))
        #expect(terminal.progress == .percent(30))
        terminal.restore()
        #expect(terminal.progress == .none)
    }
}
