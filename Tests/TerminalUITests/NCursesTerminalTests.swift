import TerminalUI
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct NCursesTerminalTests {
    /// Issue 24: a terminal without an alternate screen is cleared on the way out, with its `clear` string
    /// written raw: terminfo's padding (`$<50>` in vt100's) must not be printed.
    @Test(arguments: [
        ("\u{1B}[H\u{1B}[J$<50>", "\u{1B}[H\u{1B}[J"), ("\u{1B}[H\u{1B}[2J", "\u{1B}[H\u{1B}[2J"),
        ("$<5*/>\u{1B}[2J$<1.5>", "\u{1B}[2J"),
    ])
    func clearWithoutPadding(sequence: String, written: String) {
        #expect(NCursesTerminal.withoutPadding(sequence) == written)
    }

    /// Under `swift test` standard output is a pipe; opening curses must fail with an error, not exit.
    @Test(.enabled(if: isatty(STDOUT_FILENO) == 0, "standard output is a terminal here"))
    func refusesWhenStandardOutputIsNotATerminal() {
        #expect(throws: TerminalError.notATerminal) {
            try NCursesTerminal(environment: ["TERM": "xterm"])
        }
    }

    @Test(arguments: [
        (TerminalError.notATerminal, "standard output is not a terminal"),
        (.terminalTypeNotSet, "TERM is not set; cannot drive the terminal"),
        (.unknownTerminalType("vt9000"), "unknown terminal type 'vt9000' (TERM)"),
        (
            .noKeyboard("could not be opened (errno 6)"),
            "cannot read keys: standard input is not a terminal and /dev/tty could not be opened (errno 6)"
        ),
    ])
    func errorsNameTheirCause(error: TerminalError, message: String) {
        #expect(error.description == message)
    }
}
