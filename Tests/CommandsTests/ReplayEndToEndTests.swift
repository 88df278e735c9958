import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `statetui` binary as a user would: real arguments, files, pipes and exit status.
@Suite struct ReplayEndToEndTests {
    struct Run: Equatable {
        var status: Int32
        var output: String
        var error: String
    }

    /// The binary built next to this test bundle (the test target depends on the executable, so
    /// `swift test` builds it in the same folder, whichever scratch path is used).
    static func binary() throws -> URL {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for folder in candidates {
            let binary = folder.appendingPathComponent("statetui")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        throw BinaryNotFound(searched: candidates.map(\.path))
    }

    struct BinaryNotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String { "no statetui binary in \(searched)" }
    }

    /// Runs `statetui ARGUMENTS` with `input` on standard input; outputs go to files, so a large
    /// output can never fill a pipe and block.
    static func run(_ arguments: [String], input: String = "") throws -> Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statetui-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputFile = folder.appendingPathComponent("in")
        let outputFile = folder.appendingPathComponent("out")
        let errorFile = folder.appendingPathComponent("err")
        try Data(input.utf8).write(to: inputFile)
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            output: try String(contentsOf: outputFile, encoding: .utf8),
            error: try String(contentsOf: errorFile, encoding: .utf8))
    }

    static func temporaryFile(_ contents: Data) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "statetui-e2e-\(UUID().uuidString).txt")
        try contents.write(to: file)
        return file
    }

    @Test func replayFromStandardInput() throws {
        let run = try Self.run(
            ["replay", "transfer"],
            input: """
                # seed 000, first steps
                start
                progress(request: 1, percent: 20)

                pause
                progress(request: 1, percent: 30)
                succeeded(request: 1, file: "file-1")
                succeeded(request: 1, file: "")
                """)
        // The first six lines of seed 000's replay: a completed transfer ignores any second completion.
        let output = CommandLineToolTests.seedReplay.prefix(6).map { $0 + "\n" }.joined()
        #expect(run == Run(status: 0, output: output, error: ""))
    }

    @Test func replayFromAFileWithCRLFAndEscapes() throws {
        let file = try Self.temporaryFile(
            Data(
                "start(upload: 1)\r\nfail(upload: 1, category: server, message: \"disk \\\"full\\\"\\n\")\r\nretry(upload: 2)\r\n"
                    .utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try Self.run(["replay", "upload", file.path])
        #expect(
            run
                == Run(
                    status: 0,
                    output: """
                        to uploading(upload: 1, progress: 0.0)
                        to failed(upload: 1, category: server, message: "disk \\"full\\"\\n", sent: 0.0)
                        to uploading(upload: 2, progress: 0.0)

                        """, error: ""))
    }

    @Test func aBadLineStopsWithStatus2AfterEarlierLines() throws {
        let run = try Self.run(
            ["replay", "load"], input: "refreshTapped\nsucceeded([\"a\", \"b\"])\nsucceeded(\"a\")\nrefreshTapped\n")
        #expect(
            run
                == Run(
                    status: 2,
                    output: "to loading(previous: nil)\nto loaded([\"a\", \"b\"])\n",
                    error: "statetui: line 3: items must be an array of strings, not \"a\"; "
                        + "a load action is one of: refreshTapped, succeeded([String]), failed(String)\n"))
    }

    @Test func aMissingFileIsAnEnvironmentError() throws {
        let run = try Self.run(["replay", "transfer", "no-such-file.txt"])
        #expect(run == Run(status: 2, output: "", error: "statetui: no-such-file.txt: no such file\n"))
    }

    @Test func aFileThatIsNotUTF8IsNamed() throws {
        let file = try Self.temporaryFile(Data([0x73, 0x74, 0xFF, 0x0A]))
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try Self.run(["replay", "transfer", file.path])
        #expect(run == Run(status: 2, output: "", error: "statetui: \(file.path): line 1: not UTF-8 text\n"))
    }

    @Test func versionHelpAndUsageErrors() throws {
        #expect(try Self.run(["--version"]) == Run(status: 0, output: "statetui 0.1.0\n", error: ""))
        let help = try Self.run(["--help"])
        #expect(help.status == 0 && help.output.hasPrefix("OVERVIEW: ") && help.error.isEmpty)
        let unknown = try Self.run(["replay", "transfer", "--fast"])
        #expect(unknown.status == 2 && unknown.output.isEmpty)
        #expect(
            unknown.error.hasPrefix("statetui: unknown option '--fast'\nUSAGE:\n  statetui replay <model> [<file>]\n"))
    }

    @Test func graphThroughTheBinaryMatchesTheCheckedInDiagram() throws {
        let run = try Self.run(["graph", "upload"])
        let diagram = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/diagrams/upload.mmd")
        #expect(run == Run(status: 0, output: try String(contentsOf: diagram, encoding: .utf8), error: ""))
    }

    /// Runs `statetui ARGUMENTS` through bash with SIGPIPE ignored (`trap '' PIPE`, inherited across exec),
    /// standard output on `output`.
    static func runIgnoringSIGPIPE(_ arguments: [String], output: FileHandle) throws -> (status: Int32, error: String) {
        let errorPipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "trap '' PIPE; exec \"$0\" \"$@\"", try binary().path] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errorPipe
        try process.run()
        let error = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: error, as: UTF8.self))
    }

    @Test func aFullDiskOnStandardOutputIsAMessageAndStatus1() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let run = try Self.runIgnoringSIGPIPE(["--help"], output: full)
        #expect(run.status == 1)
        #expect(run.error == "statetui: cannot write to standard output: No space left on device\n")
    }

    @Test func aClosedPipeOnStandardOutputEndsQuietlyWithStatus141() throws {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let run = try Self.runIgnoringSIGPIPE(["graph", "transfer"], output: pipe.fileHandleForWriting)
        #expect(run.status == 141)
        #expect(run.error == "")
    }

    @Test func deepNestingInAReplayLineIsAnErrorNotACrash() throws {
        let run = try Self.run(["replay", "load"], input: "succeeded(" + String(repeating: "[", count: 50_000) + "\n")
        #expect(
            run
                == Run(
                    status: 2, output: "",
                    error: "statetui: line 1: column 74: values are nested more than 64 deep; a load action is one of: "
                        + "refreshTapped, succeeded([String]), failed(String)\n"))
    }

    @Test func aTenMegabyteLineIsRefusedWithoutBeingEchoed() throws {
        let file = try Self.temporaryFile(Data(("start\n" + String(repeating: "x", count: 10_000_000) + "\n").utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try Self.run(["replay", "transfer", file.path])
        #expect(
            run
                == Run(
                    status: 2, output: "to running(request: 1, percent: 0)\n",
                    error: "statetui: \(file.path): line 2: longer than 1048576 bytes\n"))
    }

    @Test func aLongBadLineIsQuotedAtMost200Characters() throws {
        let run = try Self.run(["replay", "load"], input: String(repeating: "x", count: 500_000) + "\n")
        #expect(
            run
                == Run(
                    status: 2, output: "",
                    error: "statetui: line 1: " + String(repeating: "x", count: 200)
                        + "… (499800 more characters) is not a load action; a load action is one of: "
                        + "refreshTapped, succeeded([String]), failed(String)\n"))
    }

    /// A FIFO's lines are replayed as they arrive: a bad second line ends the run (flushing the first verdict)
    /// while the writer still holds the FIFO open, which only a reader that streams (rather than reading the
    /// whole file first) can do.
    @Test func aReplayFileIsReadAsItArrivesNotWhole() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statetui-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("events")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        // Held open for writing (O_RDWR does not wait for a reader) before the reader starts, so the reader
        // never sees a FIFO without a writer, which it reads as empty.
        let writer = open(fifo.path, O_RDWR | O_CLOEXEC)
        try #require(writer >= 0)
        let output = Pipe()
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = ["replay", "transfer", fifo.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        #expect(write(writer, "start\nbogus\n", 12) == 12)
        // Bounded: a whole-file reader never answers before the writer closes, so give up after a minute.
        let descriptor = output.fileHandleForReading.fileDescriptor
        var firstLine: [UInt8] = []
        var waits = 0
        while !firstLine.contains(0x0A), waits < 600 {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) == 1 else {
                waits += 1
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 256)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            firstLine += chunk[..<count]
        }
        close(writer)
        process.waitUntilExit()
        #expect(String(decoding: firstLine, as: UTF8.self) == "to running(request: 1, percent: 0)\n")
        #expect(process.terminationStatus == 2)
    }
}
