import DashboardApp
import TerminalUI
import TerminalUITesting
import Testing

/// Golden text of the dashboard at pinned sizes, colour off (the text carries no colour): one snapshot per
/// `TransferState` case selected, at 80×24, 40×12 and 120×40; the help overlay; the too-small screen.
/// `SNAPSHOT_UPDATE=1` rewrites the files in `__Snapshots__`.
@Suite struct AppViewSnapshotTests {
    typealias F = DashboardFixtures

    static let sizes = [Size(width: 80, height: 24), Size(width: 40, height: 12), Size(width: 120, height: 40)]

    /// Every phase selected in turn; the rows show all five phases, one stale event and an armed failure.
    @Test(arguments: DashboardFixtures.everyPhase.map(\.name), sizes)
    func transfersScreenWithEachPhaseSelected(phase: String, size: Size) {
        let state = F.app(selected: F.row(phase), failing: [F.row("running")], stale: [F.row("paused"): 2])
        assertSnapshot(AppView.render(state, size: size), named: "transfers-\(phase)-\(size)")
    }

    @Test(arguments: sizes)
    func helpOverlay(size: Size) {
        assertSnapshot(AppView.render(F.app(overlay: .help), size: size), named: "help-\(size)")
    }

    @Test(arguments: [
        Size(width: 39, height: 12), Size(width: 40, height: 11), Size(width: 20, height: 5), Size(width: 1, height: 1),
    ])
    func belowFortyByTwelveOnlyTheMessageShows(size: Size) {
        assertSnapshot(AppView.render(F.app(), size: size), named: "too-small-\(size)")
    }

    /// Every size from 0×0 to 45×14 renders without trapping, with and without the overlay.
    @Test func everySmallSizeRenders() {
        // Built once: the states are the same at every size, and building one lays out the Graph screen's diagram.
        let plain = F.app()
        let withHelp = F.app(overlay: .help)
        for width in 0...45 {
            for height in 0...14 {
                let size = Size(width: width, height: height)
                #expect(AppView.render(plain, size: size).size == size)
                #expect(AppView.render(withHelp, size: size).size == size)
            }
        }
    }

    @Test func theTabBarDimsNoScreenOnceEveryScreenHasAFeature() {
        let canvas = AppView.render(F.app(), size: Size(width: 80, height: 24))
        let line = canvas.lines[0]
        #expect(line.hasPrefix(" 1 Transfers   2 Upload   3 Load   4 Graph   5 History"))
        #expect(canvas[1, 0].style.attributes.contains(.reverse))
        let uploadColumn = try? #require(line.firstIndex(of: "U")).utf16Offset(in: line)
        if let uploadColumn { #expect(canvas[uploadColumn, 0].style.attributes == []) }
    }
}
