import TerminalUI

/// The Graph screen in the dashboard: a machine's state graph, lit where the live machines are, exported as
/// Mermaid into the world's directory.
extension GraphFeature: DashboardScreen {
    package static let title = "Graph"

    package static func makeRuntime(_ world: World, machines: [NamedMachine]) -> GraphRuntime {
        GraphRuntime(directory: world.directory)
    }

    package static func initialState(
        _ runtime: GraphRuntime, mode: DashboardMode, machines: [NamedMachine]
    ) -> GraphScreenState {
        GraphScreenState(models: mode.graphModels)
    }

    /// While shown, the screen follows the live machines' newest states, whichever action delivered them.
    package static func follow(_ app: AppState) -> (@Sendable (inout GraphScreenState) -> Void)? {
        let live = GraphLiveStates(app)
        return { follow(&$0, live: live) }
    }

    package static func statusMessages(_ state: GraphScreenState) -> [(id: String, expired: GraphScreenAction)] {
        state.export.message.map { [("graph.export.\($0.number)", .exportExpired($0))] } ?? []
    }

    package static func perform(_ effect: GraphScreenEffect, on runtime: GraphRuntime, send: Send<GraphScreenAction>) {
        runtime.run(effect, send: send)
    }
}

extension Screen {
    /// The Graph screen.
    package static let graph = Screen(GraphFeature.self)
}
