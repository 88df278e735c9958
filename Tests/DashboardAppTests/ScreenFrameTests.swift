import SeedModels
import TerminalUI
import Testing

@testable import DashboardApp

/// Every screen in the one frame the shell draws: a single border titled with the screen's title and one
/// column of padding inside each side, at every size from the minimum up; the keymap reads the same area.
@Suite struct ScreenFrameTests {
    static let sizes = [
        Size(width: 40, height: 12), Size(width: 80, height: 24), Size(width: 120, height: 40),
        Size(width: 200, height: 60),
    ]

    /// The frame's lines for `title` at `size`: its top edge with the title, its sides, its bottom edge.
    static func frame(title: String, size: Size) -> (top: String, side: (Character, Character), bottom: String) {
        let top = "┌─ \(title) " + String(repeating: "─", count: size.width - 5 - title.count) + "┐"
        let bottom = "└" + String(repeating: "─", count: size.width - 2) + "┘"
        return (top, ("│", "│"), bottom)
    }

    @Test(arguments: Screen.allCases, sizes)
    func everyScreenIsDrawnInTheShellsFrameTitledWithItsTitle(screen: Screen, size: Size) {
        var state = DashboardFixtures.app()
        state.screen = screen
        let lines = AppView.render(state, size: size).lines
        let frame = Self.frame(title: screen.title, size: size)
        let sides = lines[2..<(size.height - 2)].map { line in
            (line.first ?? " ", line.last ?? " ")
        }
        #expect(lines[1] == frame.top)
        #expect(lines[size.height - 2] == frame.bottom)
        #expect(sides.allSatisfy { $0 == frame.side })
    }

    /// The content area is inside the border and the padding: two columns in from either side, one row in
    /// from the frame's edges, which sit under the tab bar and over the help bar.
    @Test(arguments: sizes)
    func theContentAreaIsInsideTheFrameAndItsPadding(size: Size) {
        #expect(AppView.contentArea(size) == Rect(x: 2, y: 2, width: size.width - 4, height: size.height - 4))
    }

    /// A screen drawn by the shell draws nothing on the frame's padding: the columns between the border and
    /// the content area stay blank on every screen.
    @Test(arguments: Screen.allCases, sizes)
    func noScreenDrawsOnThePadding(screen: Screen, size: Size) {
        var state = DashboardFixtures.app()
        state.screen = screen
        let lines = AppView.render(state, size: size).lines
        let padding = lines[2..<(size.height - 2)].map { line in
            let characters = Array(line)
            return [characters[1], characters[characters.count - 2]]
        }
        #expect(padding == Array(repeating: [" ", " "], count: size.height - 4))
    }
}
