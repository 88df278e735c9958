import TerminalUI
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct NCursesTerminalTests {
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
