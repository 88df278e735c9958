import FileTransfer
import Foundation
import MachineDrivers
import SeedModels
import Testing

/// A tree copy streams (issue 23): the session hands out one transfer at a time as it reads the tree, and a
/// directory is finished (journal removed, its source's mode and times given, closed) as soon as the walk
/// left it and its transfers settled, not at the end of the whole copy.
@Suite struct CopySessionTests {
    @Test(.timeLimit(.minutes(1))) func aDirectoryIsFinishedOnceItsTransfersSettledNotAtTheEnd() async throws {
        let root = NSTemporaryDirectory() + "statetui-copysession-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let source = root + "/src/tree"
        let destination = root + "/dest"
        for directory in [source + "/a", source + "/b", destination] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: source + "/a/x"))
        try Data([4, 5]).write(to: URL(fileURLWithPath: source + "/b/y"))
        let modified = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o750, .modificationDate: modified], ofItemAtPath: source + "/a")
        let session = try CopySession(
            sources: [source], destinationDirectory: destination, overwrite: false, options: CopyOptions())

        let first = try #require(session.next())
        #expect(first.request.id == "tree/a/x")
        await Self.complete(first)
        session.settled(first)
        // The walk is still inside `a`: nothing is finished yet.
        #expect(FileManager.default.fileExists(atPath: destination + "/tree/a/.statetui-journal"))

        let second = try #require(session.next())
        #expect(second.request.id == "tree/b/y")
        // Leaving `a` for `b` finished `a`, long before the session ends.
        #expect(!FileManager.default.fileExists(atPath: destination + "/tree/a/.statetui-journal"))
        let attributes = try FileManager.default.attributesOfItem(atPath: destination + "/tree/a")
        #expect(attributes[.posixPermissions] as? Int == 0o750)
        #expect(attributes[.modificationDate] as? Date == modified)

        await Self.complete(second)
        session.settled(second)
        #expect(session.next() == nil)
        #expect(session.finish() == [])
        #expect(FileManager.default.contents(atPath: destination + "/tree/a/x") == Data([1, 2, 3]))
        #expect(FileManager.default.contents(atPath: destination + "/tree/b/y") == Data([4, 5]))
        #expect(!FileManager.default.fileExists(atPath: destination + "/tree/b/.statetui-journal"))
        #expect(!FileManager.default.fileExists(atPath: destination + "/.statetui-journal"))
    }

    /// Starts `transfer` and waits, through its machine's states, until its copy completed.
    private static func complete(_ transfer: CopyTransfer) async {
        let states = transfer.machine.engine.states()
        transfer.machine.send(.start)
        for await state in states {
            switch state.phase {
            case .completed:
                await transfer.finish()
                return
            case .failed(let message):
                Issue.record("the copy failed: \(message)")
                return
            case .idle, .running, .paused:
                continue
            }
        }
        Issue.record("the machine stopped before the copy ended: \(transfer.machine.state)")
    }
}
