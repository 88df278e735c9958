import StateMachineKit
import Support

/// Values appended from any thread, read by a test afterwards.
final class Recorded<Value: Sendable>: Sendable {
    private let storage = Locked<[Value]>([])

    func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    var values: [Value] { storage.withLock { $0 } }
}
