import DashboardApp
import TerminalUI
import TerminalUITesting
import Testing

/// Issue 23: a second `statetui copy` into a directory in use waits, and its dashboard says so (before: only
/// the headless run said it, on standard error; the terminal stayed blank until the other run ended).
@Suite struct CopyWaitTests {
    /// The waiting screen names the journal and the other process; a path with control characters is escaped.
    @Test func theWaitingScreenNamesTheJournalAndTheOtherProcess() {
        let state = CopyWait.State.waiting(journal: "/backup/new\u{1B}[2J/.statetui-journal", holder: 4242)
        assertSnapshot(CopyWait.view(state, size: Size(width: 80, height: 24)), named: "copy-wait-80x24")
    }

    /// Each busy journal replaces the one shown; once the session holds every lock the wait is over, and a wait
    /// that ended stays ended.
    @Test func theWaitFollowsTheSessionUntilItIsReady() {
        var state = CopyWait.State.waiting(journal: "/d/.statetui-journal", holder: 1)
        CopyWait.reduce(&state, .waiting(journal: "/d/sub/.statetui-journal", holder: 2))
        #expect(state == .waiting(journal: "/d/sub/.statetui-journal", holder: 2))
        #expect(!CopyWait.isFinished(state))
        CopyWait.reduce(&state, .ready)
        #expect(state == .ready)
        #expect(CopyWait.isFinished(state))
        CopyWait.reduce(&state, .giveUp(.quit))
        #expect(state == .ready)
    }

    /// `q` gives up (exit 1, nothing copied), Ctrl-C interrupts (130); other keys do nothing.
    @Test(arguments: [
        (Key.character("q"), CopyWait.Action?.some(.giveUp(.quit))), (.controlC, .giveUp(.interrupted)),
        (.character("s"), nil), (.resize, .resize),
    ])
    func keysWhileWaiting(key: Key, action: CopyWait.Action?) {
        let state = CopyWait.State.waiting(journal: "/d/.statetui-journal", holder: 1)
        #expect(CopyWait.keymap(key, state) == action)
    }
}
