import Testing

@testable import DashboardApp
@testable import InspectApp
@testable import StateMachineInspector

/// The connection's messages become the store's actions: each message, then one `disconnected` that says why.
@Suite struct InspectFeedTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "socket: read failed" }
    }

    static func actions(_ messages: [InspectorMessage], ending error: Broken?) async -> [InspectScreenAction] {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: InspectorMessage.self)
        for message in messages { continuation.yield(message) }
        continuation.finish(throwing: error)
        var actions: [InspectScreenAction] = []
        for await action in InspectFeed(messages: stream) { actions.append(action) }
        return actions
    }

    @Test func aCleanEndIsOneDisconnectedWithoutAReason() async {
        let hello = InspectorMessage.hello(
            InspectorHello(program: "lamps", pid: 7, started: "2026-11-30T20:00:00Z", machines: 0))
        #expect(
            await Self.actions([hello, .bye], ending: nil)
                == [.received(hello), .received(.bye), .disconnected(reason: nil)])
    }

    @Test func aFailedReadEndsWithItsReason() async {
        #expect(
            await Self.actions([.bye], ending: Broken())
                == [.received(.bye), .disconnected(reason: "socket: read failed")])
    }
}
