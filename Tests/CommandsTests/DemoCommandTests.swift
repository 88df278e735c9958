import DashboardApp
import Foundation
import TerminalUI
import Testing

/// `statetui demo` through the command line. The command waits for its async player on the calling thread, so
/// it runs on a thread of its own here, never on one of the few threads Swift concurrency tests run on.
@Suite(.serialized) struct DemoCommandTests {
    /// The command's thread hands its result over under a lock: ThreadSanitizer sees the unlock on that thread
    /// and the lock on the test's as the hand-over, which a continuation resumed from a plain thread is not.
    final class Run: @unchecked Sendable {
        let io: MemoryIO
        private let lock = NSLock()
        private var result: Int32 = -1
        init(_ io: MemoryIO) { self.io = io }
        var status: Int32 {
            get { lock.withLock { result } }
            set { lock.withLock { result = newValue } }
        }
    }

    func run(_ arguments: [String], io: MemoryIO = MemoryIO()) async -> (status: Int32, io: MemoryIO) {
        let run = Run(io)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                let status = run.io.run(arguments)
                run.status = status
                done.resume()
            }
            thread.start()
        }
        return (run.status, run.io)
    }

    @Test func aDemoFileWithAnErrorExitsTwoNamingFileAndLine() async {
        let (status, io) = await run(
            ["demo", "bad.demo", "--headless"], io: MemoryIO(files: ["bad.demo": .success("r\nsleep soon\n")]))
        #expect(status == 2)
        #expect(io.error.hasPrefix("statetui: bad.demo:2: 'sleep soon': sleep needs a duration"))
        #expect(io.output == "")
    }

    @Test func aFailingExpectExitsOneWithTheStepAndScreen() async {
        let (status, io) = await run(
            ["demo", "fail.demo", "--headless", "--size", "40x12"],
            io: MemoryIO(files: ["fail.demo": .success("2\nexpect /Nope/\n")]))
        #expect(status == 1)
        #expect(io.error.hasPrefix("statetui: fail.demo:2: expect /Nope/ did not match; the screen was:\n"))
        #expect(io.error.contains("Upload"))
        #expect(io.output.contains("--- frame 2: expect /Nope/ ---"))
    }

    @Test func unknownDemoAndBadSizeAreUsageErrors() async {
        let unknown = await run(["demo", "nothing", "--headless"])
        #expect(unknown.status == 2)
        #expect(unknown.io.error.contains("unknown demo 'nothing'"))
        let sized = await run(["demo", "load", "--headless", "--size", "big"])
        #expect(sized.status == 2)
        #expect(sized.io.error.contains("'big' is not a valid value for --size"))
    }

    /// Issue 24: `--record .` printed `NSCocoaErrorDomain error 512` after the whole demo; now it stops
    /// before playing, saying what is wrong with which path, and a failed write is status 1.
    @Test func aRecordingThatCannotBeWrittenSaysWhyAndWhere() async {
        let directory = await run(["demo", "load", "--headless", "--record", "."])
        #expect(directory.status == 2)
        #expect(directory.io.error == "statetui: cannot write .: it is a directory\n")
        #expect(directory.io.output == "")
        let full = await run(["demo", "load", "--headless", "--record", "/dev/full"])
        #expect(full.status == 1)
        #expect(full.io.error == "statetui: cannot write /dev/full: No space left on device\n")
    }

    @Test func headlessPrintsEveryFrame() async throws {
        let (status, io) = await run(["demo", "load", "--headless"])
        #expect(status == 0)
        let script = try DemoScript.parse(BundledDemos.texts["load"] ?? "", file: "load")
        let headers = io.output.split(separator: "\n").filter { $0.hasPrefix("--- frame ") }
        #expect(headers.count == script.steps.count + 1)
        #expect(headers.last == "--- frame \(headers.count - 1): expect /AMBIGUOUS: items \\+ error/ ---")
    }
}
