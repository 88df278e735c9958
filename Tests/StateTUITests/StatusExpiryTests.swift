import DashboardApp
import MachineDrivers
import ScreenStates
import TerminalUI
import Testing

/// Issue 17: status messages clear themselves after a few seconds, on the environment's scheduler.
@Suite struct StatusExpiryTests {
    /// Through the dashboard's own store on the demo's manual scheduler: a refused key's notice still shows
    /// 4 s later and is gone once 5 s have passed.
    @Test func aRefusalNoticeClearsItselfAfterFiveSeconds() async throws {
        let (ending, frames) = try await DemoTests.play(
            script: """
                2
                p
                expect /refused: pause while idle/
                sleep 4s
                expect /refused: pause while idle/
                sleep 2s
                """,
            session: DemoSession())
        #expect(ending == .completed, "\(frames.last ?? "")")
        #expect(frames.last?.contains("refused") == false, "\(frames.last ?? "")")
    }

    /// Each message shown asks for a timer of its own, named for it; none without one.
    @Test func aStateAsksForOneTimerPerMessageShown() {
        let environment = DemoSession().environment
        var state = environment.initialState
        let ids = { Set(environment.subscriptions(for: state).map(\.id)).filter { $0.contains(":") } }
        #expect(ids() == [])
        state.upload.notice = "no"
        state.graph.export = .written(path: "/tmp/a.mmd")
        #expect(ids() == ["upload.notice:no", "graph.export:written(path: \"/tmp/a.mmd\")"])
    }

    /// An expiry clears only the message it was for: a newer one stays.
    @Test func anExpiryClearsOnlyTheMessageItWasFor() {
        var upload = UploadScreenState(notice: "new")
        #expect(UploadFeature.reduce(&upload, .noticeExpired("old")) == [])
        #expect(upload == UploadScreenState(notice: "new"))
        #expect(UploadFeature.reduce(&upload, .noticeExpired("new")) == [])
        #expect(upload == UploadScreenState())
        var graph = GraphScreenState(export: .written(path: "b"))
        #expect(GraphFeature.reduce(&graph, .exportExpired(.written(path: "a"))) == [])
        #expect(graph == GraphScreenState(export: .written(path: "b")))
        #expect(GraphFeature.reduce(&graph, .exportExpired(.written(path: "b"))) == [])
        #expect(graph == GraphScreenState())
    }
}
