import DashboardApp
import Foundation
import TerminalUI
import Testing

/// `statetui demo` through the command line (the command waits for its async player on its thread, which
/// ``MemoryIO/run(_:environment:)`` gives it of its own).
@Suite(.serialized) struct DemoCommandTests {
    func run(_ arguments: [String], io: MemoryIO = MemoryIO()) async -> (status: Int32, io: MemoryIO) {
        (await io.run(arguments), io)
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
