/// A screen of the dashboard, by its type (a ``DashboardScreen``); its number key is its place in
/// ``registry`` (`1` the first).
///
/// Adding a screen is one new folder and one line:
/// 1. `Screens/<Name>/`: its state, action and effect types and one type conforming to ``DashboardScreen``
///    (reducer, view, key table, runtime, subscriptions, effect runner, status messages, what settled means);
/// 2. its line in ``registry`` below;
/// 3. `make keys-docs` writes its keys into the man page and the README.
package struct Screen: Hashable, Sendable, CustomStringConvertible {
    /// The dashboard's screens, in tab order: the one list the app composes them from.
    package static let registry: [RegisteredScreen] = [
        RegisteredScreen(TransfersFeature.self),
        RegisteredScreen(UploadFeature.self),
        RegisteredScreen(LoadFeature.self),
        RegisteredScreen(GraphFeature.self),
        RegisteredScreen(HistoryFeature.self),
    ]

    /// The screens of `statetui copy`'s dashboard: the copies, their history and their diagram. The simulated
    /// Upload and Load stay in the demo dashboard.
    package static let copyScreens: [Screen] = [.transfers, .graph, .history]

    /// Which ``DashboardScreen`` type the screen is.
    let type: ObjectIdentifier
    /// The tab's title.
    package let title: String

    /// The screen `screen` is.
    package init<Kind: DashboardScreen>(_ screen: Kind.Type) {
        type = ObjectIdentifier(screen)
        title = Kind.title
    }

    /// Every screen, in tab order.
    package static var allCases: [Screen] { registry.map(\.screen) }

    /// The screen's entry in ``registry``: its feature lifted into the app.
    package var registered: RegisteredScreen {
        guard let entry = Self.registry.first(where: { $0.screen == self }) else {
            preconditionFailure("Internal inconsistency: \(title) is not in Screen.registry")
        }
        return entry
    }

    /// The screen's number key: its place in ``registry``, from 1.
    package var rawValue: Int { (Self.allCases.firstIndex(of: self) ?? 0) + 1 }

    package static func == (lhs: Screen, rhs: Screen) -> Bool { lhs.type == rhs.type }

    package func hash(into hasher: inout Hasher) { hasher.combine(type) }

    /// The title, lowercased: `transfers`.
    package var description: String { title.lowercased() }

    /// The screen after this one among `screens`, wrapping around (Tab).
    package func next(in screens: [Screen] = Screen.allCases) -> Screen { cycle(in: screens, step: 1) }

    /// The screen before this one among `screens`, wrapping around (Shift-Tab).
    package func previous(in screens: [Screen] = Screen.allCases) -> Screen { cycle(in: screens, step: -1) }

    private func cycle(in screens: [Screen], step: Int) -> Screen {
        guard let start = screens.firstIndex(of: self) else { return self }
        return screens[(start + step + screens.count) % screens.count]
    }
}
