import MachineDrivers
import SeedModels
import TerminalUI
import Testing

@testable import DashboardApp

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

    /// Each message shown asks for a timer of its own, named for its number; none without one. The same
    /// text shown again is a new message, with a new timer.
    @Test func aStateAsksForOneTimerPerMessageShown() {
        let environment = DemoSession().environment
        var state = environment.initialState
        let ids = {
            Set(environment.subscriptions(for: state).map(\.id)).filter {
                $0.contains("notice") || $0.contains("export")
            }
        }
        #expect(ids() == [])
        state.upload.notice.show("no")
        state.graph.export.show(.written(path: "/tmp/a.mmd"))
        #expect(ids() == ["upload.notice.1", "graph.export.1"])
        state.upload.notice.show("no")
        #expect(ids() == ["upload.notice.2", "graph.export.1"])
    }

    /// An expiry clears only the message it was for: a newer one stays, even when it says the same.
    @Test func anExpiryClearsOnlyTheMessageItWasFor() {
        var upload = UploadScreenState(notice: "no")
        let first = StatusLine<String>.Message(content: "no", number: 1)
        upload.notice.show("no")
        #expect(UploadFeature.reduce(&upload, .noticeExpired(first)) == [])
        var expected = UploadScreenState()
        expected.notice.show("no")
        expected.notice.show("no")
        #expect(upload == expected)
        #expect(UploadFeature.reduce(&upload, .noticeExpired(.init(content: "no", number: 2))) == [])
        #expect(upload == UploadScreenState())
        var graph = GraphScreenState(export: .written(path: "a"))
        graph.export.show(.written(path: "b"))
        #expect(GraphFeature.reduce(&graph, .exportExpired(.init(content: .written(path: "a"), number: 1))) == [])
        var written = GraphScreenState()
        written.export.show(.written(path: "a"))
        written.export.show(.written(path: "b"))
        #expect(graph == written)
        #expect(GraphFeature.reduce(&graph, .exportExpired(.init(content: .written(path: "b"), number: 2))) == [])
        #expect(graph == GraphScreenState())
    }

    /// Typed twice, a refusal shows its full lifetime after the second time: the first timer, still set
    /// when the second refusal came, does not clear it.
    @Test func aRefusalTypedAgainShowsForItsWholeLifetime() async throws {
        let (ending, frames) = try await DemoTests.play(
            script: """
                2
                p
                expect /refused: pause while idle/
                sleep 3s
                p
                sleep 3s
                expect /refused: pause while idle/
                sleep 3s
                """,
            session: DemoSession())
        #expect(ending == .completed, "\(frames.last ?? "")")
        #expect(frames.last?.contains("refused") == false, "\(frames.last ?? "")")
    }
}
