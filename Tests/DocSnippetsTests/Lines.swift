import Synchronization

/// Lines collected from a `@Sendable` sink, for checking what a reporter printed.
final class Lines: Sendable {
    private let storage = Mutex<[String]>([])

    func append(_ line: String) {
        storage.withLock { $0.append(line) }
    }

    var all: [String] { storage.withLock { $0 } }
}
