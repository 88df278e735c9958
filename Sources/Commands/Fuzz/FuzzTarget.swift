import DashboardApp
import FileTransfer
import SeedModels
import StateMachineInspector
import TerminalUI

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every parser of outside input, fed raw bytes: the one entry that each libFuzzer executable
/// (`Tests/Fuzz/<Name>/main.swift`, built by `make fuzz`) and the seed-corpus regression test share.
///
/// An entry returns whether the parser accepted the input; a rejection is a clean, thrown or returned
/// error. Anything else (a trap, an overflow, a hang, an unbounded allocation) is the bug a fuzzer hunts.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// The canonical text of each model's events, actions, states and effects (printing what it read must
    /// give text that reads back the same).
    case canonical = "FuzzCanonical"
    /// `statetui replay`'s line reader: the first line names the model, every other line is replayed.
    case replay = "FuzzReplay"
    /// A demo script (`*.demo`).
    case demoScript = "FuzzDemoScript"
    /// The key decoder: each byte as a character, alone and through the stream decoder that reads mouse
    /// reports, then every 5 bytes as one wide input through the stream decoder.
    case keyDecoder = "FuzzKeyDecoder"
    /// The copy journal reader, fed whole and in two pieces (both must read the same).
    case journal = "FuzzJournal"
    /// An asciicast v2 recording.
    case asciicast = "FuzzAsciicast"
    /// The command line, one argument per line: parsed and run in memory (`demo` and `copy` only parsed).
    case commandLine = "FuzzCommandLine"
    /// The inspector protocol both ways: the client's reader (lines over a real socket, the `hello` rules,
    /// the client's picture of the program), and the server's writer (each message read writes a line that
    /// reads back as itself).
    case inspectorProtocol = "FuzzInspectorProtocol"
    /// The inspector's socket listing over a private directory of entries the input names (a first byte
    /// `f`ile, `l`ink or `d`irectory, then the name): nothing that is not a stale socket is deleted.
    case socketListing = "FuzzSocketListing"
    /// The configuration file (`config.toml`): the TOML subset and the meaning of its tables; an error's message
    /// must carry no control character, whatever bytes the file held.
    case config = "FuzzConfig"

    /// Runs the parser on `bytes`; true when it accepted them.
    package func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .canonical: Self.canonical(Self.text(bytes))
        case .replay: Self.replay(bytes)
        case .demoScript: (try? DemoScript.parse(Self.text(bytes), file: "fuzz.demo")) != nil
        case .keyDecoder: Self.keys(bytes)
        case .journal: Self.journal(bytes)
        case .asciicast: (try? Asciicast(parsing: Self.text(bytes))) != nil
        case .commandLine: Self.commandLine(Self.text(bytes))
        case .inspectorProtocol: Self.inspectorProtocol(UnsafeRawBufferPointer(bytes))
        case .socketListing: Self.socketListing(Self.text(bytes))
        case .config: Self.config(Self.text(bytes))
        }
    }

    /// Runs the parser on `bytes`; true when it accepted them.
    package func run(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { run($0) }
    }

    /// The bytes as text, as a file read by the command is (invalid UTF-8 repaired).
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Accepted when any model type reads the text; whatever reads must print text that reads back as itself.
    private static func canonical(_ text: String) -> Bool {
        if let value = try? CanonicalValue.parse(text) {
            let printed = value.description
            precondition((try? CanonicalValue.parse(printed))?.description == printed, "\(printed) does not read back")
        }
        let accepted = [
            readsBack(TransferEvent.self, text), readsBack(TransferState.self, text),
            readsBack(TransferEffect.self, text), readsBack(TransferModel.self, text),
            readsBack(UploadEvent.self, text), readsBack(UploadState.self, text),
            readsBack(LoadAction.self, text), readsBack(LoadState.self, text),
        ]
        return accepted.contains(true)
    }

    /// True when `text` is a `Value`; its canonical text must then read back to the same text.
    private static func readsBack<Value: CanonicalText>(_: Value.Type, _ text: String) -> Bool {
        guard let value = try? Value(parsing: text) else { return false }
        let printed = value.description
        precondition(
            (try? Value(parsing: printed))?.description == printed, "\(Value.self): \(printed) does not read back")
        return true
    }

    /// The bytes through the windowed ``LineReader`` that `statetui replay` reads files and standard input
    /// with (a small window and line limit, so short inputs reach its refill and overlong-line paths).
    private static func replay(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var rest = UnsafeRawBufferPointer(bytes)[...]
        let reader = LineReader(maximumLineLength: 64) { buffer in
            let count = min(buffer.count, rest.count, 7)
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: rest.prefix(count)))
            rest = rest.dropFirst(count)
            return count
        }
        guard case .success(let name)? = reader.nextResult(), let model = ScreenModel(rawValue: name) else {
            return false
        }
        return ReplayCommand.run(
            model: model, replayer: model.makeReplayer(), source: { reader.nextResult() }, io: memoryIO()) == 0
    }

    private static func keys(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var decoded = bytes.compactMap { KeyDecoder.decode(.character(UInt32($0))) }
        var stream = KeyDecoder()
        for byte in bytes { decoded += stream.feed(.character(UInt32(byte))) }
        decoded += stream.flush()
        var rest = bytes[...]
        while rest.count >= 5 {
            let kind = rest.removeFirst()
            let value = rest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            rest = rest.dropFirst(4)
            let input: WideInput = kind & 1 == 0 ? .character(value) : .keyCode(Int32(bitPattern: value))
            decoded += stream.feed(input)
        }
        decoded += stream.flush()
        precondition(!stream.isHoldingInput, "the decoder holds input after a flush")
        for key in decoded {
            guard case .mouse = key else { continue }
            // A report names a cell of the grid, and reads back from its written name (traces, demo scripts).
            precondition(Key(name: key.description) == key, "\(key) does not read back from its name")
        }
        return !decoded.isEmpty
    }

    private static func journal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var whole = JournalReader()
        whole.consume(raw)
        let result = whole.finish()
        var pieces = JournalReader()
        let cut = raw.first.map { Int($0) % (raw.count + 1) } ?? 0
        pieces.consume(UnsafeRawBufferPointer(rebasing: raw[..<cut]))
        pieces.consume(UnsafeRawBufferPointer(rebasing: raw[cut...]))
        let piecewise = pieces.finish()
        precondition(
            piecewise.entries == result.entries && piecewise.problems == result.problems,
            "the journal read differently in two pieces")
        return result.problems.isEmpty
    }

    /// The whole command line through ``CommandLineTool`` in memory, except `demo` and `copy`, which would play
    /// a demo or copy files: those stop after their spec's parse and option checks.
    private static func commandLine(_ text: String) -> Bool {
        let words = CommandIO.splitLines(text)
        guard let first = words.first, first == DemoCommand.spec.name || first == CopyCommand.spec.name else {
            return CommandLineTool.run(words, io: memoryIO(), dashboard: { _ in 0 }) == 0
        }
        let spec = first == DemoCommand.spec.name ? DemoCommand.spec : CopyCommand.spec
        guard let parsed = try? spec.parse(Array(words.dropFirst())) else { return false }
        return parsed.options["size"].map { Size(parsing: $0) != nil } ?? true
    }

    /// The bytes as a program's side of a connection, read by the client until it ends; true when every line
    /// was a message in order (`hello` first).
    private static func inspectorProtocol(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { return false }
        // What fits in the socket's buffer without waiting for the reader on this same thread.
        let sent = send(ends[1], bytes.baseAddress, min(bytes.count, 32 << 10), Int32(MSG_NOSIGNAL))
        close(ends[1])
        let connection = InspectorConnection(reading: ends[0], name: "fuzz")
        defer { connection.close() }
        guard sent == min(bytes.count, 32 << 10) else { return false }
        var program = InspectedProgram(recordLimit: 4, machineLimit: 4)
        do {
            while let message = try connection.next() {
                program.apply(message)
                precondition(
                    (try? InspectorMessage(line: message.line())) == message, "\(message.line()) does not read back")
            }
        } catch {
            program.disconnected()
            return false
        }
        program.disconnected()
        return true
    }

    /// Up to 16 lines, each an entry to make (`f` a file, `l` a symlink to it, `d` a directory, then its
    /// name) in a fresh private directory, which is then listed: every entry must still be there, and none
    /// may be listed. True when some name has the form of a program's socket.
    private static func config(_ text: String) -> Bool {
        do {
            _ = try DashboardConfig(parsing: text)
            return true
        } catch {
            let message = error.located(in: "fuzz\u{1B}.toml").description
            precondition(
                !message.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) },
                "an unescaped control character in \(message.debugDescription)")
            return false
        }
    }

    private static func socketListing(_ text: String) -> Bool {
        var template = Array("/tmp/statetui-fuzz-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return false }
        let directory = String(cString: made)
        defer { _ = try? FileManager.default.removeItem(atPath: directory) }
        var entries: [String] = []
        var socketNames = false
        for line in CommandIO.splitLines(text).prefix(16) {
            guard let kind = line.first else { continue }
            let name = String(line.dropFirst().prefix(200)).replacing("/", with: "_")
            guard !name.isEmpty, name != ".", name != "..", !name.contains("\0") else { continue }
            let path = directory + "/" + name
            let created =
                switch kind {
                case "l": symlink(directory + "/missing", path) == 0
                case "d": mkdir(path, 0o700) == 0
                default: FileManager.default.createFile(atPath: path, contents: Data("keep".utf8))
                }
            if created { entries.append(path) }
            if InspectorDiscovery.parse(fileName: name) != nil { socketNames = true }
        }
        let listed = InspectorDiscovery.list(directory: directory, ask: false)
        precondition(listed.isEmpty, "entries that are not sockets were listed: \(listed)")
        for path in entries {
            var info = stat()
            precondition(lstat(path, &info) == 0, "the listing deleted \(path), which is not a socket")
        }
        return socketNames
    }

    /// An IO with no input and no files that discards what is written.
    private static func memoryIO() -> CommandIO {
        CommandIO(
            readInputLine: { nil }, readFile: { _ in .failure(CommandIO.ReadError("no such file")) },
            writeOutput: { _ in }, writeError: { _ in })
    }
}
