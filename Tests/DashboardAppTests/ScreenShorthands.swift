// swift-format-ignore-file
// Not formatted: one line a screen, so the shorthands read as the table they are.
import DashboardApp
import MachineDrivers

// The screens' states, actions, effects and runtimes by name, as the tests read them: one line each over the
// generic embedding (`AppState[_:]`, `ScreenValue.embed`, `DashboardEnvironment.runtime(_:)`).

private typealias Transfers = TransfersFeature
private typealias Upload = UploadFeature
private typealias Load = LoadFeature
private typealias Graph = GraphFeature
private typealias History = HistoryFeature

extension AppState {
    var transfers: TransfersScreenState { get { self[Transfers.self] } set { self[Transfers.self] = newValue } }
    var upload: UploadScreenState { get { self[Upload.self] } set { self[Upload.self] = newValue } }
    var load: LoadScreenState { get { self[Load.self] } set { self[Load.self] = newValue } }
    var graph: GraphScreenState { get { self[Graph.self] } set { self[Graph.self] = newValue } }
    var history: HistoryScreenState { get { self[History.self] } set { self[History.self] = newValue } }
}

extension AppAction {
    static func transfers(_ action: TransfersScreenAction) -> AppAction { .screen(.embed(Transfers.self, action)) }
    static func upload(_ action: UploadScreenAction) -> AppAction { .screen(.embed(Upload.self, action)) }
    static func load(_ action: LoadScreenAction) -> AppAction { .screen(.embed(Load.self, action)) }
    static func graph(_ action: GraphScreenAction) -> AppAction { .screen(.embed(Graph.self, action)) }
    static func history(_ action: HistoryScreenAction) -> AppAction { .screen(.embed(History.self, action)) }
}

extension AppEffect {
    static func transfers(_ effect: TransfersScreenEffect) -> AppEffect { AppEffect(.embed(Transfers.self, effect)) }
    static func upload(_ effect: UploadScreenEffect) -> AppEffect { AppEffect(.embed(Upload.self, effect)) }
    static func load(_ effect: LoadScreenEffect) -> AppEffect { AppEffect(.embed(Load.self, effect)) }
    static func graph(_ effect: GraphScreenEffect) -> AppEffect { AppEffect(.embed(Graph.self, effect)) }
}

extension DashboardEnvironment {
    var transfers: TransfersRuntime { runtime(Transfers.self) }
    var upload: UploadRuntime { runtime(Upload.self) }
    var load: LoadRuntime { runtime(Load.self) }
    var graph: GraphRuntime { runtime(Graph.self) }
}
