import DashboardApp
import InspectApp
import StateMachineInspector
import TerminalUI
import TerminalUITesting
import Testing

/// The inspect screens' reducer over a recorded protocol session, the readable state change, and golden text of
/// Machines, History and Graph at 80×24 and 120×40, live and after the program exited.
/// `SNAPSHOT_UPDATE=1` rewrites the files in `__Snapshots__`.
@Suite struct InspectFeatureTests {
    /// A session as `statetui inspect NAME --headless` printed it: a lamp with sample events (explored graph)
    /// and a copy transfer without (learned graph), a stale event, an invalid one, then the program's bye.
    static let recorded = [
        #"{"machines":2,"pid":4242,"program":"statetui-copy","started":"2026-11-30T20:00:00Z","type":"hello","version":1}"#,
        #"{"id":1,"label":"lamp","sequence":0,"state":"off","type":"machine","visit":1,"#
            + #""graph":{"edges":[{"event":"flip","from":"off","to":"on"},{"event":"flip","from":"on","to":"off"}],"#
            + #""states":["off","on"],"truncated":false}}"#,
        #"{"id":2,"label":"a.bin","sequence":0,"state":"idle","type":"machine","visit":1}"#,
        #"{"machine":2,"sequence":1,"visit":1,"before":"idle","event":"start","outcome":"moved","after":"running(request: 1, percent: 0)","type":"record"}"#,
        #"{"machine":2,"state":"running(request: 1, percent: 0)","visit":2,"type":"state"}"#,
        #"{"machine":2,"sequence":2,"visit":2,"before":"running(request: 1, percent: 0)","event":"progress(40)","outcome":"updated","after":"running(request: 1, percent: 40)","type":"record"}"#,
        #"{"machine":2,"sequence":3,"visit":2,"before":"running(request: 1, percent: 40)","event":"pause","outcome":"moved","after":"paused(request: 1, percent: 40)","type":"record"}"#,
        #"{"machine":2,"sequence":4,"visit":3,"before":"paused(request: 1, percent: 40)","event":"chunk(visit: 2)","outcome":"stale","after":"paused(request: 1, percent: 40)","type":"record"}"#,
        #"{"machine":2,"state":"paused(request: 1, percent: 40)","visit":3,"type":"state"}"#,
        #"{"machine":1,"sequence":1,"visit":1,"before":"off","event":"smash","outcome":"invalid","reason":"lamps are not smashed","after":"off","type":"record"}"#,
        #"{"machine":1,"sequence":2,"visit":1,"before":"off","event":"flip","outcome":"moved","after":"on","type":"record"}"#,
        #"{"machine":1,"state":"on","visit":2,"type":"state"}"#,
    ]

    static let bye = #"{"type":"bye"}"#

    static func messages(_ lines: [String]) throws -> [InspectorMessage] {
        try lines.map { try InspectorMessage(line: $0) }
    }

    /// The state after `lines`, then `actions`, from a fresh screen.
    static func state(_ lines: [String] = recorded, then actions: [InspectScreenAction] = []) throws
        -> InspectScreenState
    {
        var state = InspectScreenState(socketPath: "/run/user/1000/statetui/statetui-copy.4242.sock")
        for action in try messages(lines).map(InspectScreenAction.received) + actions {
            #expect(InspectFeature.reduce(&state, action) == [])
        }
        return state
    }

    @Test func theRecordedSessionBuildsTheProgramTheLibraryBuilds() throws {
        var program = InspectedProgram()
        for message in try Self.messages(Self.recorded) { program.apply(message) }
        var expected = InspectScreenState(
            socketPath: "/run/user/1000/statetui/statetui-copy.4242.sock", program: program)
        expected.machine = 1
        #expect(try Self.state() == expected)
    }

    @Test func travellingBackSelectsAnOlderRecordAndEndFollowsAgain() throws {
        var expected = try Self.state()
        expected.tab = .history
        expected.machine = 2
        expected.record = 2
        #expect(try Self.state(then: [.openHistory, .moveMachine(1), .travel(-2)]) == expected)
        expected.record = 1
        #expect(try Self.state(then: [.openHistory, .moveMachine(1), .travel(Int.min / 2)]) == expected)
        expected.record = nil
        #expect(try Self.state(then: [.openHistory, .moveMachine(1), .travel(-2), .followNewest]) == expected)
        #expect(try Self.state(then: [.openHistory, .moveMachine(1), .travel(-2), .travel(9)]).record == 4)
    }

    static let searching: [InspectScreenAction] =
        [.openHistory, .moveMachine(1), .search(.begin)] + "paus".map { .search(.input($0)) }

    @Test func searchingHistoryTravelsToTheNewestMatchAndNAndShiftNWrap() throws {
        var expected = try Self.state()
        expected.tab = .history
        expected.machine = 2
        expected.search = HistorySearch(pattern: "paus")
        #expect(try Self.state(then: Self.searching) == expected)
        expected.search = HistorySearch(pattern: "paus", isEditing: false, match: 4)
        expected.record = 4
        #expect(try Self.state(then: Self.searching + [.submitSearch]) == expected)
        expected.search?.match = 3
        expected.record = 3
        #expect(try Self.state(then: Self.searching + [.submitSearch, .findMatch(older: true)]) == expected)
        #expect(try Self.state(then: Self.searching + [.submitSearch, .findMatch(older: false)]) == expected)
        expected.search?.match = 4
        expected.record = 4
        #expect(
            try Self.state(then: Self.searching + [.submitSearch, .findMatch(older: true), .findMatch(older: true)])
                == expected)
    }

    @Test func aHistorySearchWithNoMatchKeepsTheRecordAndEscForgetsIt() throws {
        var expected = try Self.state(then: [.openHistory, .moveMachine(1), .travel(-1)])
        let typed = [.search(.begin)] + "zz".map { InspectScreenAction.search(.input($0)) } + [.search(.backspace)]
        expected.search = HistorySearch(pattern: "z", isEditing: false)
        #expect(
            try Self.state(then: [.openHistory, .moveMachine(1), .travel(-1)] + typed + [.submitSearch]) == expected)
        expected.search = nil
        #expect(
            try Self.state(
                then: [.openHistory, .moveMachine(1), .travel(-1)] + typed + [.submitSearch, .search(.cancel)])
                == expected)
        #expect(
            try Self.state(then: [.openHistory, .moveMachine(1), .travel(-1), .search(.begin), .submitSearch])
                == expected)
    }

    @Test func whileHistorysPatternIsTypedEveryPrintableKeyGoesIntoIt() throws {
        let typing = try Self.state(then: [.openHistory, .search(.begin)])
        #expect(InspectFeature.keymap(.character("q"), typing) == .search(.input("q")))
        #expect(InspectFeature.keymap(.character("j"), typing) == .search(.input("j")))
        #expect(InspectFeature.keymap(.character("1"), typing) == .search(.input("1")))
        #expect(InspectFeature.keymap(.enter, typing) == .submitSearch)
        #expect(InspectFeature.keymap(.escape, typing) == .search(.cancel))
        #expect(InspectFeature.keymap(.up, typing) == nil)
        #expect(InspectFeature.keymap(.controlC, typing) == .interrupt)
        #expect(InspectFeature.keymap(.character("n"), try Self.state(then: [.openHistory])) == nil)
        let searched = try Self.state(then: Self.searching + [.submitSearch])
        #expect(InspectFeature.keymap(.character("n"), searched) == .findMatch(older: true))
        #expect(InspectFeature.keymap(.character("N"), searched) == .findMatch(older: false))
        #expect(InspectFeature.keymap(.character("q"), searched) == .quit)
    }

    @Test func oSortsHistoryAndTravelAndSearchFollowTheDrawnOrder() throws {
        var expected = try Self.state(then: [.openHistory, .moveMachine(1)])
        expected.historySort = 0
        #expect(try Self.state(then: [.openHistory, .moveMachine(1), .cycleHistorySort]) == expected)
        // By event: chunk(visit: 2), pause, progress(40), start; following, the newest (#4) is the top row.
        #expect(
            try Self.state(then: [.openHistory, .moveMachine(1), .cycleHistorySort]).shownRecords.map(\.sequence) == [
                4, 3, 2, 1,
            ])
        expected.record = 3
        #expect(try Self.state(then: [.openHistory, .moveMachine(1), .cycleHistorySort, .travel(1)]) == expected)
        expected.search = HistorySearch(pattern: "paus", isEditing: false, match: 3)
        #expect(try Self.state(then: [.cycleHistorySort] + Self.searching + [.submitSearch]) == expected)
        expected.search = nil
        expected.record = nil
        expected.historySort = nil
        #expect(
            try Self.state(then: [.openHistory, .moveMachine(1)] + Array(repeating: .cycleHistorySort, count: 4))
                == expected)
    }

    @Test func anotherMachineForgetsTheTravelAndThePan() throws {
        var expected = try Self.state()
        expected.machine = 2
        #expect(try Self.state(then: [.travel(-1), .pan(rows: 1, columns: 4), .moveMachine(1)]) == expected)
        #expect(try Self.state(then: [.moveMachine(-5)]) == Self.state())
    }

    @Test func byeThenTheConnectionClosingIsAnExitedProgramThatKeepsItsMachines() throws {
        var expected = try Self.state()
        expected.program.apply(.bye)
        #expect(try Self.state(Self.recorded + [Self.bye], then: [.disconnected(reason: nil)]) == expected)
        #expect(expected.programExited)
        #expect(InspectFeature.subscriptions(socketPath: expected.socketPath, for: expected).isEmpty)
    }

    @Test func aConnectionLostWithoutByeIsReportedWithItsReason() throws {
        var expected = try Self.state()
        expected.program.disconnected()
        expected.failure = "read: Connection reset by peer"
        #expect(try Self.state(then: [.disconnected(reason: "read: Connection reset by peer")]) == expected)
        #expect(expected.program.status == .lost)
    }

    @Test func whileLiveTheScreensListenOnOneSubscriptionUntilTheUserQuits() throws {
        let live = try Self.state()
        #expect(
            InspectFeature.subscriptions(socketPath: live.socketPath, for: live).map(\.id) == [
                "inspect.\(live.socketPath)"
            ])
        let quit = try Self.state(then: [.quit])
        #expect(quit.exit == .quit)
        #expect(InspectFeature.subscriptions(socketPath: quit.socketPath, for: quit).isEmpty)
        #expect(try Self.state(then: [.interrupt]).exit == .interrupted)
    }

    @Test(arguments: [
        (Key.character("1"), InspectTab.history, InspectScreenAction.show(.machines)),
        (.tab, .graph, .cycleTab(1)),
        (.enter, .machines, .openHistory),
        (.up, .machines, .moveCursor(.lineUp, rows: InspectFeature.page)),
        (.up, .history, .travel(-1)),
        (.end, .history, .followNewest),
        (.up, .graph, .pan(rows: -1, columns: 0)),
        (.right, .graph, .pan(rows: 0, columns: InspectFeature.panStep)),
        (.character("h"), .graph, .pan(rows: 0, columns: -InspectFeature.panStep)),
        (.character("]"), .graph, .moveMachine(1)),
        (.character("["), .history, .moveMachine(-1)),
        (.character("]"), .machines, .moveMachine(1)),
        (.character("g"), .history, .travel(Int.min / 2)),
        (.character("G"), .history, .followNewest),
        (.character("G"), .machines, .moveCursor(.bottom, rows: InspectFeature.page)),
        (.character("/"), .machines, .list(.beginFilter)),
        (.character("o"), .machines, .list(.cycleSort)),
        (.character("/"), .history, .search(.begin)),
        (.character("o"), .history, .cycleHistorySort),
        (.character("v"), .graph, .toggleStateText),
        (.character("f"), .graph, .toggleFullGraph),
        (.character("q"), .graph, .quit),
    ])
    func keysMeanWhatTheBindingsTableSaysOnEachScreen(key: Key, tab: InspectTab, action: InspectScreenAction) {
        var state = InspectScreenState(socketPath: "s")
        state.tab = tab
        #expect(InspectFeature.keymap(key, state) == action)
    }

    @Test func theKeysOfAScreenDoNothingOnAnother() {
        var state = InspectScreenState(socketPath: "s")
        state.tab = .machines
        #expect(InspectFeature.keymap(.character("f"), state) == nil)
        #expect(InspectFeature.keymap(.left, state) == nil)
        state.tab = .history
        #expect(InspectFeature.keymap(.character("f"), state) == nil)
        state.tab = .graph
        #expect(InspectFeature.keymap(.character("/"), state) == nil)
    }

    @Test(arguments: [
        ("idle", "running(request: 1, percent: 0)", ["case: idle → running", "+ request: 1", "+ percent: 0"]),
        ("running(request: 1, percent: 0)", "running(request: 1, percent: 40)", ["percent: 0 → 40"]),
        (
            "running(request: 1, percent: 40)", "failed(reason: \"disk, full\")",
            ["case: running → failed", "+ reason: \"disk, full\"", "- request: 1", "- percent: 40"]
        ),
        ("off", "on", ["off → on"]),
        ("on", "on", []),
        ("a(1, [2, 3])", "a(1, [2, 4])", ["#2: [2, 3] → [2, 4]"]),
    ])
    func whatChangedIsToldFieldByField(before: String, after: String, lines: [String]) {
        #expect(StateChange.lines(from: before, to: after) == lines)
    }

    static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40)]

    @Test(arguments: InspectTab.allCases, sizes)
    func screensOfALiveProgram(tab: InspectTab, size: Size) throws {
        let state = try Self.state(then: [.show(tab), .moveMachine(1)])
        assertSnapshot(InspectFeature.render(state, size: size), named: "inspect-\(tab.title.lowercased())-\(size)")
    }

    @Test(arguments: sizes)
    func historyTravelledBackShowsTheStateThenAndWhatChanged(size: Size) throws {
        let state = try Self.state(then: [.show(.history), .moveMachine(1), .travel(-2)])
        assertSnapshot(InspectFeature.render(state, size: size), named: "inspect-history-travelled-\(size)")
    }

    @Test func historySearchLooksAsTheDashboardsDoes() throws {
        let size = Size(width: 80, height: 24)
        assertSnapshot(
            InspectFeature.render(try Self.state(then: Self.searching), size: size),
            named: "inspect-history-search-typing-\(size)")
        assertSnapshot(
            InspectFeature.render(
                try Self.state(then: Self.searching + [.submitSearch, .findMatch(older: true)]), size: size),
            named: "inspect-history-search-\(size)")
    }

    @Test func historySortedMarksItsColumnAndSaysSo() throws {
        let size = Size(width: 120, height: 24)
        assertSnapshot(
            InspectFeature.render(
                try Self.state(then: [.show(.history), .moveMachine(1), .cycleHistorySort]), size: size),
            named: "inspect-history-sorted-\(size)")
    }

    @Test(arguments: InspectTab.allCases, sizes)
    func screensAfterTheProgramExitedKeepTheLastPicture(tab: InspectTab, size: Size) throws {
        let state = try Self.state(then: [.show(tab), .disconnected(reason: nil)])
        assertSnapshot(
            InspectFeature.render(state, size: size), named: "inspect-exited-\(tab.title.lowercased())-\(size)")
    }

    @Test func everySmallSizeRenders() throws {
        let state = try Self.state(then: [.show(.graph)])
        for width in 0...45 {
            for height in 0...14 {
                _ = InspectFeature.render(state, size: Size(width: width, height: height))
            }
        }
    }
}
