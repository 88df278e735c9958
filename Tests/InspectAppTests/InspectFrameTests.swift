import InspectApp
import TerminalUI
import Testing

/// `statetui inspect` draws each of its screens in the frame the dashboard's shell draws (DashboardAppTests'
/// `ScreenFrameTests`), under the program's line.
@Suite struct InspectFrameTests {
    @Test(arguments: InspectTab.allCases)
    func inspectScreensAreDrawnInTheSameFrame(tab: InspectTab) {
        let size = Size(width: 80, height: 24)
        let state = InspectScreenState(socketPath: "/tmp/statetui-test.sock", tab: tab)
        let lines = InspectFeature.render(state, size: size).lines
        let top = "┌─ \(tab.title) " + String(repeating: "─", count: size.width - 5 - tab.title.count) + "┐"
        let bottom = "└" + String(repeating: "─", count: size.width - 2) + "┘"
        #expect(lines[2] == top)
        #expect(lines[size.height - 2] == bottom)
    }
}
