import DashboardApp
import TerminalUI
import TerminalUITesting
import Testing

/// Golden text and styles of the Transfers screen, every phase on screen, in the dark and the light theme at each
/// colour depth: 8 colours draw the ANSI palette, 256 the palette's richer entries, true colour 24-bit values.
/// `SNAPSHOT_UPDATE=1` rewrites the files in `__Snapshots__`.
@Suite struct ThemeSnapshotTests {
    typealias F = DashboardFixtures

    @Test(arguments: Theme.Name.allCases, ColorDepth.allCases)
    func transfersInEachThemeAtEachDepth(name: Theme.Name, depth: ColorDepth) {
        var state = F.app(selected: F.row("running"), failing: [F.row("running")], stale: [F.row("paused"): 2])
        state.settings.theme = Theme(name: name, depth: depth)
        assertSnapshot(
            AppView.render(state, size: Size(width: 80, height: 24)), named: "theme-\(name)-\(depth.rawValue)-80x24")
    }

    @Test func theDefaultDarkThemeAtEightColoursIsTheScreenAsDrawn() {
        let plain = F.app(selected: F.row("running"))
        var themed = plain
        themed.settings.theme = Theme(name: .dark, depth: .ansi8)
        #expect(
            AppView.render(themed, size: Size(width: 80, height: 24))
                == AppView.render(plain, size: Size(width: 80, height: 24)))
    }

    @Test func aConfiguredColourWinsOverTheThemeAtEveryDepth() {
        for depth in ColorDepth.allCases {
            let theme = Theme(name: .light, overrides: [.paused: .rgb(red: 0, green: 0, blue: 0xd0)], depth: depth)
            let expected: Color =
                switch depth {
                case .ansi8: .blue
                case .indexed256: .indexed(20)
                case .trueColor: .rgb(0, 0, 0xd0)
                }
            #expect(theme.color(of: .paused) == expected, "\(depth)")
        }
    }
}
