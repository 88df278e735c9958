import Commands
import FileTransfer
import Foundation
import SeedModels
import Testing

@Suite struct ProgressLinesTests {
    /// Which changes print a line: phase changes, a new request, and crossing a 10% boundary.
    @Test(
        arguments: [
            (nil, TransferState.idle, true),
            (.idle, .idle, false),
            (.idle, .running(request: 1, percent: 0), true),
            (.running(request: 1, percent: 0), .running(request: 1, percent: 9), false),
            (.running(request: 1, percent: 9), .running(request: 1, percent: 10), true),
            (.running(request: 1, percent: 10), .running(request: 1, percent: 19), false),
            (.running(request: 1, percent: 19), .running(request: 1, percent: 47), true),
            (.running(request: 1, percent: 40), .running(request: 2, percent: 40), true),
            (.running(request: 1, percent: 40), .paused(request: 1, percent: 40), true),
            (.paused(request: 1, percent: 40), .paused(request: 1, percent: 40), false),
            (.running(request: 1, percent: 100), .completed(file: "/d/a"), true),
            (.completed(file: "/d/a"), .completed(file: "/d/a"), false),
            (.running(request: 1, percent: 30), .failed(message: "disk full"), true),
            (.failed(message: "disk full"), .failed(message: "disk full"), false),
        ] as [(TransferState?, TransferState, Bool)])
    func aLineOnlyForChangesThatMatter(previous: TransferState?, state: TransferState, expected: Bool) {
        #expect(ProgressLines().isWorthReporting(state, after: previous) == expected)
    }

    /// A running state prints only once the copy began moving bytes, and only from the percent it began at: a
    /// resumed file's start (0%, recorded before its first progress) seen beside a status already noting the 12%
    /// it continues from prints nothing, so the first line says where the copy continues. Other phases print
    /// whatever the status says.
    @Test(
        arguments: [
            (TransferState.running(request: 1, percent: 0), nil, false),
            (.running(request: 1, percent: 0), 0, true),
            (.running(request: 1, percent: 0), 12, false),
            (.running(request: 1, percent: 11), 12, false),
            (.running(request: 1, percent: 12), 12, true),
            (.running(request: 2, percent: 40), 12, true),
            (.paused(request: 1, percent: 0), 12, true),
            (.completed(file: "/d/a"), nil, true),
            (.failed(message: "disk full"), nil, true),
        ] as [(TransferState, Int?, Bool)])
    func aRunningLineOnlyFromThePercentCopyingBeganAt(state: TransferState, copyingFrom: Int?, expected: Bool) {
        #expect(ProgressLines().isWorthReporting(state, after: .idle, copyingFrom: copyingFrom) == expected)
    }

    /// A whole copy from 0 to 100 in 1% steps prints eleven progress lines, not a hundred.
    @Test func aFullCopyPrintsElevenProgressLines() {
        let lines = ProgressLines()
        var printed: [TransferState] = []
        for percent in 0...100 {
            let state = TransferState.running(request: 1, percent: percent)
            if lines.isWorthReporting(state, after: printed.last) { printed.append(state) }
        }
        #expect(printed == stride(from: 0, through: 100, by: 10).map { .running(request: 1, percent: $0) })
    }

    /// A file name with a newline, ESC or a bidirectional override still prints as one line.
    @Test(arguments: [
        ("two\nlines", #"two\nlines: idle"#),
        ("\u{1B}[2Jclear", #"\u{1B}[2Jclear: idle"#),
        ("tab\there", #"tab\there: idle"#),
        ("back\\slash", #"back\\slash: idle"#),
        ("\u{202E}txt.exe", #"\u{202E}txt.exe: idle"#),
        ("naïve 文字", "naïve 文字: idle"),
    ])
    func controlCharactersInTheNameAreEscaped(name: String, line: String) {
        #expect(ProgressLines.line(name: name, state: .idle) == line)
    }

    /// A file found already there completed without being copied, and the line says why.
    @Test(
        arguments: [
            (TransferState.completed(file: "/d/a.bin"), "same size and time", "a.bin: skipped (same size and time)"),
            (.completed(file: "/d/a.bin"), "same content", "a.bin: skipped (same content)"),
            (.completed(file: "/d/a.bin"), nil, #"a.bin: completed(file: "/d/a.bin")"#),
            (.running(request: 1, percent: 50), "same content", "a.bin: running(request: 1, percent: 50)"),
        ] as [(TransferState, String?, String)])
    func aFileAlreadyThereIsSaidToBeSkipped(state: TransferState, alreadyThere: String?, line: String) {
        #expect(ProgressLines.line(name: "a.bin", state: state, alreadyThere: alreadyThere) == line)
    }

    /// A byte of a name that is not UTF-8 reads `\xFF` in the name, in the completed file's path and in a
    /// failure's message alike; a quote or a newline in them is escaped, so the line stays one line.
    @Test(
        arguments: [
            (
                TransferState.completed(file: "/d/bad" + FileName.string([0xFF]) + "name"),
                #"bad\xFFname: completed(file: "/d/bad\xFFname")"#
            ),
            (
                .failed(message: "cannot read \"/s/bad" + FileName.string([0xFF]) + "name\":\nNo such file"),
                #"bad\xFFname: failed(message: "cannot read \"/s/bad\xFFname\":\nNo such file")"#
            ),
        ] as [(TransferState, String)])
    func bytesThatAreNotUTF8ReadAlikeThroughTheLine(state: TransferState, line: String) {
        #expect(ProgressLines.line(name: "bad" + FileName.string([0xFF]) + "name", state: state) == line)
    }

    @Test func theLineIsTheNameAndTheCanonicalState() {
        #expect(
            ProgressLines.line(name: "a.bin", state: .failed(message: "cannot read /x: No such file or directory"))
                == #"a.bin: failed(message: "cannot read /x: No such file or directory")"#)
    }

    /// A total line at most once a second: the first one a second after the start, the next a second after it.
    @Test(arguments: [
        (Duration.milliseconds(999), Duration?.none, false),
        (.seconds(1), nil, true),
        (.milliseconds(1500), .seconds(1), false),
        (.milliseconds(2000), .seconds(1), true),
    ])
    func aTotalLineAtMostOnceASecond(elapsed: Duration, lastPrinted: Duration?, due: Bool) {
        #expect(ProgressLines().isTotalDue(at: elapsed, lastPrinted: lastPrinted) == due)
    }
}

@Suite struct CopyCommandLineTests {
    /// Sources first, the destination last, flags anywhere.
    @Test(arguments: [
        (
            ["a", "d"],
            ParsedCommand(name: "copy", arguments: ["destination": "d"], lists: ["source": ["a"]])
        ),
        (
            ["--headless", "a", "b", "c", "d", "--overwrite"],
            ParsedCommand(
                name: "copy", arguments: ["destination": "d"], lists: ["source": ["a", "b", "c"]],
                flags: ["headless", "overwrite"])
        ),
        (
            ["a", "--start", "d"],
            ParsedCommand(name: "copy", arguments: ["destination": "d"], lists: ["source": ["a"]], flags: ["start"])
        ),
        (
            ["a", "d", "--no-confirm"],
            ParsedCommand(
                name: "copy", arguments: ["destination": "d"], lists: ["source": ["a"]], flags: ["no-confirm"])
        ),
    ])
    func parsesSourcesDestinationAndFlags(words: [String], expected: ParsedCommand) throws {
        #expect(try CopyCommand.spec.parse(words) == expected)
    }

    @Test(arguments: [
        ([], "missing <source>"),
        (["d"], "missing <destination>"),
        (["a", "d", "--headless", "--headless"], "'--headless' is given more than once"),
        (["a", "d", "--headless=yes"], "'--headless' takes no value"),
        (["a", "d", "--fast"], "unknown option '--fast'"),
    ])
    func refusesBadCommandLines(words: [String], message: String) {
        #expect(throws: UsageError(message, command: "copy")) { try CopyCommand.spec.parse(words) }
    }

    /// `--exclude` may be given any number of times; its values keep their order.
    @Test func excludeIsRepeatable() throws {
        let parsed = try CopyCommand.spec.parse(["a", "--exclude", "*.tmp", "d", "--exclude=cache/"])
        #expect(parsed.repeated == ["exclude": ["*.tmp", "cache/"]])
        #expect(parsed.lists == ["source": ["a"]] && parsed.arguments == ["destination": "d"])
    }

    @Test func usageAndHelpNameTheFlags() async {
        #expect(
            CopyCommand.spec.usage
                == "statetui copy <source> ... <destination> [--headless] [--start] [--overwrite] [--dry-run]"
                + " [--checksum] [--inspectable] [--no-wait] [--no-confirm] [--simulate-faults] [--exclude <glob>]"
                + " [--config <file>]")
        let memory = MemoryIO()
        #expect(await memory.run(["help", "copy"]) == 0)
        #expect(memory.output == CopyCommand.spec.help)
        #expect(memory.output.contains("--headless"))
        let top = MemoryIO()
        #expect(await top.run(["--help"]) == 0)
        #expect(top.output.contains("  copy                    " + CopyCommand.spec.abstract))
        #expect(top.output.contains("  statetui copy <source> ... <destination>"))
    }

    /// A destination that is not a writable directory is refused before anything starts: exit 2, a
    /// message naming it and the OS reason, nothing on standard output, nothing written.
    @Test func aDestinationThatIsNotADirectoryIsRefused() async throws {
        let root = NSTemporaryDirectory() + "statetui-copycommand-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = root + "/file.txt"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let memory = MemoryIO()
        #expect(await memory.run(["copy", file, file, "--headless"]) == 2)
        #expect(memory.output == "")
        #expect(memory.error == "statetui: destination \(file) is not a writable directory: Not a directory\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["file.txt"])
    }

    /// The usual config file is the dashboard's: a headless copy and a dry run do not read it, so one that cannot
    /// be read (a home the user may not enter) or does not parse no longer stops them with exit 2; a file named
    /// with `--config` is still read and checked.
    @Test(arguments: [
        Result<String, CommandIO.ReadError>.failure(CommandIO.ReadError("cannot be read (permission denied)")),
        .success("theme = 3\n"),
    ])
    func aCopyWithoutTheDashboardDoesNotReadTheUsualConfigFile(usual: Result<String, CommandIO.ReadError>)
        async throws
    {
        let root = NSTemporaryDirectory() + "statetui-copycommand-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/out", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/file.txt"))
        let files = ["/home/someone/.config/statetui/config.toml": usual, "/etc/broken.toml": .success("[x]\n")]
        /// `statetui copy FILE OUT ARGUMENTS` with those files and a home: its status and standard error.
        func copy(_ arguments: String...) async -> (status: Int32, error: String) {
            let memory = MemoryIO(files: files)
            let status = await memory.run(
                ["copy", root + "/file.txt", root + "/out"] + arguments, environment: ["HOME": "/home/someone"])
            return (status, memory.error)
        }
        #expect(await copy("--dry-run") == (0, ""))
        #expect(await copy("--headless") == (0, ""))
        #expect(
            await copy("--headless", "--config", "/etc/broken.toml") == (
                2, "statetui: /etc/broken.toml:1: unknown table [x]: expected [keys], [theme], [copy] or [clipboard]\n"
            ))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/out") == ["file.txt"])
    }

    /// Two sources with one file name would land on one destination file: a usage error.
    @Test func twoSourcesWithTheSameNameAreRefused() async throws {
        let root = NSTemporaryDirectory() + "statetui-copycommand-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let memory = MemoryIO()
        #expect(await memory.run(["copy", "/x/a.bin", "/y/a.bin", root, "--headless"]) == 2)
        #expect(memory.error.hasPrefix("statetui: /x/a.bin and /y/a.bin would both be copied to 'a.bin'\nUSAGE:\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == [])
    }

    /// A test knob with a value that is not a number is named, with exit 2.
    @Test func aBadTuningVariableIsNamed() throws {
        #expect(
            throws: UsageError(
                "STATETUI_COPY_CHUNK_BYTES='lots' is not a whole number from 1 to 1073741824", command: "copy")
        ) {
            try CopyTuning(environment: [CopyTuning.chunkSizeVariable: "lots"])
        }
        // Bounded: a delay of 5,000,000 ms made the copy trap (its microseconds did not fit `useconds_t`).
        #expect(
            throws: UsageError(
                "STATETUI_COPY_CHUNK_DELAY_MS='5000000' is not a whole number from 0 to 60000", command: "copy")
        ) {
            try CopyTuning(environment: [CopyTuning.chunkDelayVariable: "5000000"])
        }
        #expect(
            throws: UsageError(
                "STATETUI_COPY_CHECKPOINT_BYTES='0' is not a whole number of at least 1", command: "copy")
        ) {
            try CopyTuning(environment: ["STATETUI_COPY_CHECKPOINT_BYTES": "0"])
        }
        #expect(
            try CopyTuning(environment: [CopyTuning.chunkDelayVariable: "15"])
                == CopyTuning(chunkDelayMilliseconds: 15))
    }
}
