import DashboardApp
import Dispatch
import SeedModels
import StateMachineKit
import Support
import TerminalUI

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `statetui demo transfer|upload|load|tour [--headless] [--size WxH] [--record FILE.cast]`: plays a scripted
/// screen-state demo on the dashboard.
package enum DemoCommand {
    /// The declaration behind parsing and help.
    package static let spec = CommandSpec(
        name: "demo",
        abstract: "Play a scripted screen-state demo on the dashboard, in the terminal or headless.",
        arguments: [
            .init(
                name: "name",
                help: "The demo: \(BundledDemos.names.joined(separator: "|")), or the path of a FILE.demo.",
                completion: .init(words: BundledDemos.names, paths: .files))
        ],
        options: [
            .init(name: "size", valueName: "WxH", help: "The screen size of a headless run.", defaultValue: "80x24"),
            .init(
                name: "record", valueName: "file.cast", help: "Also write an asciicast v2 recording to this file.",
                defaultValue: nil, completion: .files),
        ],
        flags: [.init(name: "headless", help: "Print every frame as plain text instead of using the terminal.")],
        discussion: """
            A demo file has one step a line: a key name (s, space, tab, shift-tab, enter, esc, up, ctrl-c, f5 …),
            a pause ('sleep 300ms', 'sleep 1.5s', 'sleep 60m', 'sleep 24h'; at most 8760h) or a check on the screen
            ('expect /regex/': literals, ., [a-z], \\d \\w \\s \\b, ( ), (?: ), |, * + ? {n,m}, ^ $, matched in
            time linear in the screen); '#' starts a comment. A demo file is at most 1 MiB.
            Without --headless, a person watches it run: the top row shows 'demo NAME · step N of M' while
            it plays and 'demo NAME done — q quits' at its end; q stops it. With --headless no terminal is
            needed: every frame is printed after a '--- frame N: <step> ---' line, and time is simulated, so
            the frames are the same on every run. A failed expect prints the step and the screen on standard
            error and exits 1; a demo file with an error prints 'statetui: FILE:LINE: …' and exits 2.
            """)

    /// The largest `--size`: wider and taller than any real terminal, small enough that every frame of a
    /// demo is drawn, matched and printed in moments.
    static let maximumSize = Size(width: 1000, height: 500)

    /// Runs the parsed command.
    static func run(_ command: ParsedCommand, io: CommandIO) throws(UsageError) -> Int32 {
        guard let name = command.arguments["name"] else {
            preconditionFailure("Internal inconsistency: demo's spec admitted \(command)")
        }
        let size = try size(command.options["size"] ?? "80x24")
        guard let (file, script) = try script(named: name, io: io) else { return 2 }
        // Created before the demo plays, so that a path that cannot be written stops it at once.
        var recordFile: OutputFile?
        if let recordPath = command.options["record"] {
            do {
                recordFile = try OutputFile(creating: recordPath)
            } catch {
                io.writeError("statetui: \(error)\n")
                return 2
            }
        }
        let played: (ending: DemoPlayer.Ending, cast: Asciicast?)
        if command.flags.contains("headless") {
            played = playHeadless(script, name: name, size: size, recording: recordFile != nil, io: io)
        } else {
            guard let interactive = playInteractive(script, name: name, recording: recordFile != nil, io: io) else {
                try? recordFile?.close()
                return 2
            }
            played = interactive
        }
        if let recordFile {
            do {
                // Closed either way; a demo that made no cast leaves the file as it was created, empty.
                if let cast = played.cast {
                    try OutputFile.write(cast.text, into: recordFile)
                } else {
                    try recordFile.close()
                }
            } catch {
                io.writeError("statetui: \(error)\n")
                return 1
            }
        }
        if case .failed(let step, let screen) = played.ending {
            io.writeError("statetui: \(file):\(step.line): \(step.text) did not match; the screen was:\n\(screen)")
        }
        return played.ending.status
    }

    /// The `--size` value, from 1x1 to ``maximumSize``.
    private static func size(_ text: String) throws(UsageError) -> Size {
        guard let size = Size(parsing: text), size.width <= maximumSize.width, size.height <= maximumSize.height
        else {
            throw UsageError(
                "\(UsageError.quote(text)) is not a valid value for --size; expected WxH from 1x1 to "
                    + "\(maximumSize.width)x\(maximumSize.height), e.g. 80x24",
                command: "demo")
        }
        return size
    }

    /// The demo `name` names, bundled or a FILE.demo, parsed, with the file its lines are reported against;
    /// nil after a file that cannot be read or parsed was reported on standard error.
    private static func script(named name: String, io: CommandIO) throws(UsageError) -> (String, DemoScript)? {
        let file: String
        let text: String
        if let bundled = BundledDemos.texts[name] {
            file = "Resources/demos/\(name).demo"
            text = bundled
        } else if name.hasSuffix(".demo") {
            file = name
            switch io.readFile(name) {
            case .failure(let failure):
                io.writeError("statetui: \(CanonicalValue.excerpt(name)): \(failure.message)\n")
                return nil
            case .success(let contents): text = contents
            }
        } else {
            throw UsageError(
                "unknown demo \(UsageError.quote(name)); expected one of: \(BundledDemos.names.joined(separator: ", ")), or a FILE.demo",
                command: "demo")
        }
        do {
            return (file, try DemoScript.parse(text, file: file))
        } catch {
            io.writeError("statetui: \(error)\n")
            return nil
        }
    }

    /// Plays the demo without a terminal, each frame written as it is drawn (so a long demo's frames are
    /// never all held at once); records its cast when asked.
    private static func playHeadless(
        _ script: DemoScript, name: String, size: Size, recording: Bool, io: CommandIO
    ) -> (ending: DemoPlayer.Ending, cast: Asciicast?) {
        let cast = recording ? Self.recording(name: name, size: size) : nil
        let output = HandedOver(io.writeOutput)
        return blocking {
            var cast = cast
            let ending = await DemoPlayer.headless(script, size: size, world: DemoSession(), cast: &cast) {
                output.value($0)
            }
            return (ending, cast)
        }
    }

    /// Plays the demo on the terminal, titled with the demo's name (a file's without its folder and
    /// `.demo`); nil when there is no terminal to play on (said on standard error).
    private static func playInteractive(
        _ script: DemoScript, name: String, recording: Bool, io: CommandIO
    ) -> (ending: DemoPlayer.Ending, cast: Asciicast?)? {
        let terminal: NCursesTerminal
        do {
            terminal = try NCursesTerminal(environment: ProcessInfo.processInfo.environment)
        } catch {
            io.writeError("statetui: \(error) (use --headless to play the demo without a terminal)\n")
            return nil
        }
        let title = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
        let cast = recording ? Self.recording(name: name, size: terminal.size) : nil
        let shared = HandedOver(terminal)
        let played = blocking {
            var cast = cast
            let ending = await DemoPlayer.interactive(
                script, name: title, on: shared.value, world: DemoSession(), cast: &cast)
            return (ending: ending, cast: cast)
        }
        terminal.restore()
        return played
    }

    private static func recording(name: String, size: Size) -> Asciicast {
        Asciicast(
            width: size.width, height: size.height, timestamp: Int(Date().timeIntervalSince1970),
            title: "statetui demo \(name)")
    }

    /// What the calling thread hands to the task that plays the demo (the terminal, the output): the calling
    /// thread only waits meanwhile, so the value is still used by one thread at a time.
    private final class HandedOver<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Runs `body` in a task and waits for its result on the calling (non-async) thread.
    private static func blocking<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
        precondition(DetachedThread.mayBlock, "a demo blocks its thread: run the command on a thread of its own")
        let result = Locked<Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        guard let value = result.withLock({ $0 }) else { preconditionFailure("Internal inconsistency: no result") }
        return value
    }
}
