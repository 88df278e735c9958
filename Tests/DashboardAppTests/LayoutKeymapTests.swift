import DashboardApp
import SeedModels
import TerminalUI
import TerminalUITesting
import Testing

/// What depends on the drawn layout: clicks on tabs and rows, the wheel, and the help overlay scrolling at
/// the height it is drawn at.
@Suite struct LayoutKeymapTests {
    typealias F = DashboardFixtures

    static let screen = Size(width: 80, height: 24)

    static func press(_ x: Int, _ y: Int) -> Key { .mouse(MouseEvent(.press(.left), at: Point(x: x, y: y))) }
    static func wheel(_ action: MouseAction) -> Key { .mouse(MouseEvent(action, at: Point(x: 30, y: 10))) }

    /// At 80×24 the tabs are ` 1 Transfers ` (columns 0–12), ` 2 Upload ` (14–23) …; the table's header is
    /// row 2 and photos.tar, backup.img, dataset.csv … rows 3, 4, 5 ….
    @Test(
        arguments: [
            (press(16, 0), AppAction.select(.upload)),
            (press(23, 0), .select(.upload)),
            (press(48, 0), .select(.history)),
            (press(5, 3), nil),  // the selected row again
            (press(10, 5), .transfers(.select(row: 2))),
            (press(77, 7), .transfers(.select(row: 4))),
            (press(5, 0), nil),  // the tab already shown
            (press(13, 0), nil),  // between two tabs
            (press(10, 2), nil),  // the table's header
            (press(10, 8), nil),  // below the last row
            (press(10, 23), nil),  // the help bar
            (.mouse(MouseEvent(.press(.right), at: Point(x: 16, y: 0))), nil),
            (.mouse(MouseEvent(.release(.left), at: Point(x: 16, y: 0))), nil),
            (wheel(.wheelDown), .transfers(.selectNext)),
            (wheel(.wheelUp), .transfers(.selectPrevious)),
        ] as [(Key, AppAction?)])
    func aClickOrTheWheelOnTransfers(key: Key, action: AppAction?) {
        #expect(Keymap.action(for: key, in: F.app(), size: Self.screen) == action)
    }

    @Test(
        arguments: [
            (Screen.history, MouseAction.wheelUp, AppAction.history(.scroll(-3))),
            (.history, .wheelDown, .history(.scroll(3))),
            (.graph, .wheelUp, .graph(.scroll(-3))),
            (.graph, .wheelDown, .graph(.scroll(3))),
            (.upload, .wheelDown, nil),
            (.load, .wheelUp, nil),
        ] as [(Screen, MouseAction, AppAction?)])
    func theWheelScrollsTheScreensThatScroll(screen: Screen, action: MouseAction, expected: AppAction?) {
        var state = F.app()
        state.screen = screen
        #expect(Keymap.action(for: Self.wheel(action), in: state, size: Self.screen) == expected)
    }

    /// One sign for every scrolling screen: `↓`, PgDn, End and the wheel turned down scroll by a positive count
    /// (forward, towards the newest), `↑`, PgUp, Home and the wheel turned up by a negative one.
    @Test(arguments: [Screen.history, .graph])
    func downIsPositiveAndUpNegativeOnEveryScreenThatScrolls(screen: Screen) throws {
        var state = F.app()
        state.screen = screen
        func rows(_ key: Key) throws -> Int {
            let action = try #require(Keymap.action(for: key, in: state, size: Self.screen))
            switch (action.of(HistoryFeature.self), action.of(GraphFeature.self)) {
            case (.scroll(let rows)?, _), (_, .scroll(let rows)?): return rows
            // History's keys move a list by the drawn page: the move names its direction.
            case (.move(.lineDown, _)?, _), (.move(.pageDown, _)?, _), (.move(.bottom, _)?, _): return 1
            case (.move(.lineUp, _)?, _), (.move(.pageUp, _)?, _), (.move(.top, _)?, _): return -1
            default:
                Issue.record("\(key) does not scroll on \(screen)")
                return 0
            }
        }
        let forward: [Key] = [.down, .pageDown, .end, Self.wheel(.wheelDown)]
        let back: [Key] = [.up, .pageUp, .home, Self.wheel(.wheelUp)]
        #expect(try forward.map(rows).allSatisfy { $0 > 0 } && back.map(rows).allSatisfy { $0 < 0 })
    }

    /// Below 40×12 only the too-small message is drawn: nothing there to click.
    @Test func nothingIsClickedOnTheTooSmallScreen() {
        #expect(Keymap.action(for: Self.press(16, 0), in: F.app(), size: Size(width: 39, height: 12)) == nil)
    }

    /// Below 40×12 only the too-small message is drawn, so only quitting acts: `q` (asking first while copies
    /// run; asked, `y` or `n` answer as everywhere) and Ctrl-C. Before, every key acted unseen: `S` started
    /// every copy, digits changed screens, `?` opened a help nobody could read.
    @Test(
        arguments: [
            (Key.character("q"), nil, AppAction.quit), (.controlC, nil, .interrupt), (.character("S"), nil, nil),
            (.character("s"), nil, nil), (.character("2"), nil, nil), (.character("?"), nil, nil), (.down, nil, nil),
            (.character("y"), nil, nil), (.character("y"), .confirmQuit, .quitConfirmed),
            (.character("n"), .confirmQuit, .closeOverlay), (.character("q"), .confirmQuit, nil),
            (.character("j"), .confirmQuit, nil),
        ] as [(Key, Overlay?, AppAction?)])
    func onlyQuittingActsOnTheTooSmallScreen(key: Key, overlay: Overlay?, expected: AppAction?) {
        let state = F.app(selected: F.row("running"), overlay: overlay)
        #expect(Keymap.action(for: key, in: state, size: Size(width: 60, height: 11)) == expected)
    }

    /// `q` while copies run asks on the too-small screen too, the question above the message.
    @Test func theTooSmallScreenAsksWhetherToQuit() {
        let lines = AppView.render(F.app(overlay: .confirmQuit), size: Size(width: 39, height: 12)).lines
        #expect(
            lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } == [
                "copies are running: y quits, n stays", "terminal too small (need 40×12)",
            ])
    }

    /// Keys whose meaning does not depend on the layout mean what the keymap says.
    @Test(arguments: [Key.character("j"), .character("s"), .tab, .character("q"), .character("?"), .up])
    func otherKeysMeanWhatTheKeymapSays(key: Key) {
        let state = F.app(selected: F.row("running"))
        #expect(
            Keymap.action(for: key, in: state, size: Self.screen)
                == Keymap.action(for: key, in: state, size: DashboardFixtures.size))
    }

    /// The help overlay at 40×12 shows 8 of its 50 lines: ↓/PgDn/End and the wheel scroll it, ↑ at the top
    /// and every key at the bottom do nothing; other keys still close it or quit.
    @Test(
        arguments: [
            (Key.down, 0, AppAction.scrollHelp(toLine: 1)),
            (.pageDown, 0, .scrollHelp(toLine: 7)),
            (.end, 0, .scrollHelp(toLine: 51)),
            (.up, 0, nil),
            (.home, 0, nil),
            (.up, 51, .scrollHelp(toLine: 50)),
            (.pageUp, 51, .scrollHelp(toLine: 44)),
            (.home, 51, .scrollHelp(toLine: 0)),
            (.down, 51, nil),
            (.end, 51, nil),
            (wheel(.wheelDown), 0, .scrollHelp(toLine: 3)),
            (wheel(.wheelUp), 2, .scrollHelp(toLine: 0)),
            (press(16, 0), 0, nil),
            (.escape, 5, .closeOverlay),
            (.character("q"), 5, .quit),
            (.character("s"), 5, nil),
        ] as [(Key, Int, AppAction?)])
    func theHelpOverlayScrollsWhereItDoesNotFit(key: Key, offset: Int, action: AppAction?) {
        var state = F.app(overlay: .help)
        state.helpOffset = offset
        #expect(Keymap.action(for: key, in: state, size: Size(width: 40, height: 12)) == action)
    }

    /// At 120×40 the whole help fits: nothing to scroll.
    @Test(arguments: [Key.down, .pageDown, .end, wheel(.wheelDown)])
    func aHelpThatFitsDoesNotScroll(key: Key) {
        #expect(Keymap.action(for: key, in: F.app(overlay: .help), size: Size(width: 120, height: 40)) == nil)
    }

    /// Scrolling moves the help's first line; closing and opening it again starts from the top; with the
    /// overlay closed a stray scroll changes nothing.
    @Test func scrollingTheHelpMovesItsFirstLineUntilClosed() {
        var state = F.app(overlay: .help)
        #expect(AppReducer.reduce(&state, .scrollHelp(toLine: 9)) == [])
        var expected = F.app(overlay: .help)
        expected.helpOffset = 9
        #expect(state == expected)
        _ = AppReducer.reduce(&state, .closeOverlay)
        #expect(state == F.app())
        _ = AppReducer.reduce(&state, .scrollHelp(toLine: 4))
        #expect(state == F.app())
        _ = AppReducer.reduce(&state, .showHelp)
        #expect(state == F.app(overlay: .help))
    }

    /// The end of the help at 40×12: the border says what is above, the last lines show.
    @Test func theHelpScrolledToItsEnd() {
        var state = F.app(overlay: .help)
        state.helpOffset = 44
        assertSnapshot(AppView.render(state, size: Size(width: 40, height: 12)), named: "help-scrolled-40x12")
    }

    /// The tables are the one source of the mouse too: every click and turn of the wheel is a binding of a
    /// table, listed with the other keys.
    @Test func everyClickAndTurnOfTheWheelIsABindingOfATable() {
        func mouse(_ bindings: [KeyBinding<AppState, AppAction>]) -> [MouseAction] { bindings.flatMap(\.mouse) }
        #expect(mouse(Keymap.globalBindings) == [.press(.left), .wheelUp, .wheelDown])
        #expect(
            Screen.allCases.map { mouse(Keymap.bindings(for: $0)) } == [
                [.press(.left), .wheelUp, .wheelDown], [], [], [.wheelUp, .wheelDown], [.wheelUp, .wheelDown],
            ])
        #expect(Keymap.globalHelp.contains(KeyHelp("click a tab", "show its screen")))
        #expect(Keymap.bindings(for: .transfers).allHelp().contains(KeyHelp("click", "select a transfer")))
    }

    /// The help bar's `↑↓ scroll` comes from the overlay's scroll binding, asked at the drawn size: offered
    /// where the help does not fit, not where it does.
    @Test func theHelpBarOffersScrollingOnlyWhereTheHelpDoesNotFit() {
        let help = F.app(overlay: .help)
        let close = KeyHelp("esc", "close")
        let quit = KeyHelp("q", "quit")
        #expect(Keymap.barHelp(help, size: Size(width: 40, height: 12)) == [close, KeyHelp("↑↓", "scroll"), quit])
        #expect(Keymap.barHelp(help, size: Size(width: 120, height: 40)) == [close, quit])
    }

    /// A binding refined by the layout: History's PgDn pressed on the 80×24 screen pages by the 17 rows drawn
    /// there (24 less the tab bar, the help bar, the frame's two edges, the selector, the status line and the
    /// header).
    @Test func aPageIsTheRowsDrawnWhenPressedOnTheScreen() {
        var state = F.app()
        state.screen = .history
        #expect(Keymap.action(for: .pageDown, in: state, size: Self.screen) == .history(.move(.pageDown, rows: 17)))
    }

    @Test func clickingATransferSelectsIt() {
        var state = F.app()
        _ = AppReducer.reduce(&state, .transfers(.select(row: 3)))
        #expect(state == F.app(selected: 3))
        _ = AppReducer.reduce(&state, .transfers(.select(row: 99)))
        #expect(state == F.app(selected: 4))
    }
}

/// The terminal's progress indicator follows the transfers under way.
@Suite struct TransfersProgressTests {
    typealias F = DashboardFixtures

    static func screen(_ phases: [TransferState]) -> TransfersScreenState {
        TransfersScreenState(
            rows: phases.enumerated().map { index, phase in
                TransferRow(name: "t\(index)", model: TransferModel(phase: phase, lastRequest: 1))
            })
    }

    @Test(arguments: [
        ([TransferState.idle, .completed(file: "a")], TerminalProgress.none),
        ([.running(request: 1, percent: 20), .idle], .percent(20)),
        ([.running(request: 1, percent: 20), .paused(request: 1, percent: 61)], .percent(40)),
        ([.paused(request: 1, percent: 61), .failed(message: "x")], .paused(61)),
        ([], .none),
    ])
    func theIndicatorShowsTheMeanOfWhatIsUnderWay(phases: [TransferState], progress: TerminalProgress) {
        #expect(TransfersFeature.progress(Self.screen(phases)) == progress)
    }
}

/// A demo script clicks and turns the wheel through the same store, layout keymap and reducer as a person.
@Suite struct MouseDemoTests {
    @Test func aScriptedClickAndWheelDriveTheDashboard() async throws {
        let (ending, frames) = try await DemoTests.play(
            script: """
                press-left@16,0
                expect /State idle/
                press-left@5,0
                wheeldown@30,10
                wheeldown@30,10
                f
                expect /│ dataset\\.csv .*next fails *│/
                press-left@10,7
                f
                expect /│ notes\\.md .*next fails *│/
                """,
            session: DemoSession())
        #expect(ending == .completed)
        #expect(frames.first { $0.contains("--- frame 1: press-left@16,0 ---") } != nil)
    }
}
