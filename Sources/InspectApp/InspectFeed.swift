import DashboardApp
import StateMachineInspector

/// The inspected program's connection as the store's actions: each message as ``InspectScreenAction/received(_:)``,
/// then one ``InspectScreenAction/disconnected(reason:)`` when the connection ends (cleanly or not), then nothing.
///
/// The messages are read on the connection's own thread
/// (``StateMachineInspector/InspectorConnection/messages(socketPath:bufferLimit:)``); this sequence only maps
/// them, so no task polls and ending the subscription closes the socket.
struct InspectFeed<Messages: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Messages.Element == InspectorMessage {
    typealias Element = InspectScreenAction

    let messages: Messages

    struct AsyncIterator: AsyncIteratorProtocol {
        var messages: Messages.AsyncIterator
        var ended = false

        mutating func next() async -> InspectScreenAction? {
            guard !ended else { return nil }
            do {
                if let message = try await messages.next() { return .received(message) }
                ended = true
                return .disconnected(reason: nil)
            } catch {
                ended = true
                return .disconnected(reason: String(describing: error))
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(messages: messages.makeAsyncIterator())
    }
}
