import Commands
import Foundation
import StateMachineKit
import Support
import Testing

@testable import StateMachineInspector

/// `statetui inspect`: the list of inspectable programs, `--headless` JSON lines, and the errors.
@Suite("statetui inspect", .serialized)
struct InspectCommandTests {
    enum Lamp: Hashable, Sendable, CustomStringConvertible {
        case off, on
        var description: String { self == .off ? "off" : "on" }
    }

    enum Switch: Hashable, Sendable, CustomStringConvertible {
        case flip, smash
        var description: String { self == .flip ? "flip" : "smash" }
    }

    @Sendable static func lamp(_ state: Lamp, _ event: Switch) -> Transition<Lamp, Switch> {
        switch (state, event) {
        case (.off, .flip): .to(.on)
        case (.on, .flip): .to(.off)
        case (_, .smash): .invalid("lamps are not smashed")
        }
    }

    /// A private XDG_RUNTIME_DIR for one test, removed afterwards.
    final class RuntimeDirectory {
        let path: String
        var environment: [String: String] { ["XDG_RUNTIME_DIR": path] }
        var sockets: String { InspectorDirectory.path(environment: environment) }

        init() throws {
            var template = Array("/tmp/inspect-command-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw InspectorError("mkdtemp failed") }
            path = String(cString: made)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static func run(_ arguments: [String], environment: [String: String]) -> (
        status: Int32, output: String, error: String
    ) {
        var output = ""
        var error = ""
        let io = CommandIO(
            readInputLine: { nil }, readFile: { _ in .failure(CommandIO.ReadError("no files")) },
            writeOutput: { output += $0 }, writeError: { error += $0 })
        let status = CommandLineTool.run(arguments, io: io, environment: environment) { _ in 0 }
        return (status, output, error)
    }

    @Test("with no program running, the list says so and exits 0")
    func emptyList() throws {
        let runtime = try RuntimeDirectory()
        let result = Self.run(["inspect"], environment: runtime.environment)
        #expect(result.status == 0)
        #expect(result.output == "no inspectable programs (\(runtime.sockets))\n")
        #expect(result.error == "")
    }

    @Test("the list names each program with its pid, machines and start")
    func listNamesPrograms() throws {
        let runtime = try RuntimeDirectory()
        let inspector = try Inspector.start(name: "lamps", directory: runtime.sockets)
        defer { inspector.stop() }
        let machine = StateMachine(initial: Lamp.off, label: "lamp", transition: Self.lamp)
        inspector.register(machine)
        let result = Self.run(["inspect"], environment: runtime.environment)
        #expect(result.status == 0)
        #expect(
            result.output
                == InspectCommand.table([
                    InspectableProcess(
                        name: "lamps", pid: Int(getpid()), socketPath: inspector.socketPath, machines: 1,
                        started: inspector.started)
                ]))
        #expect(result.output.hasPrefix("NAME   PID"))
    }

    /// `run` on a thread of its own, for a command that blocks until another program does something: the
    /// test's task stays free to be that program.
    static func runOnAThread(_ arguments: [String], environment: [String: String]) async -> (
        status: Int32, output: String, error: String
    ) {
        await DetachedThread.value(name: "statetui inspect") { run(arguments, environment: environment) }
    }

    @Test(
        "--headless prints every message as a JSON line until the program stops, then exits 0",
        .timeLimit(.minutes(1)))
    func headlessFollowsUntilBye() async throws {
        let runtime = try RuntimeDirectory()
        let inspector = try Inspector.start(name: "lamps", directory: runtime.sockets)
        let machine = StateMachine(initial: Lamp.off, label: "lamp", transition: Self.lamp)
        inspector.register(machine)
        let counts = inspector.clientCounts()
        async let following = Self.runOnAThread(["inspect", "lamps", "--headless"], environment: runtime.environment)
        // The program's side: once the command is attached, three events, then stop.
        for await count in counts where count > 0 { break }
        machine.send(.flip)
        machine.send(.smash)
        machine.send(.flip)
        inspector.stop()
        let result = await following
        #expect(result.status == 0)
        #expect(result.error == "")
        let messages = try result.output.split(separator: "\n").map { try InspectorMessage(line: $0) }
        #expect(
            messages.prefix(2) == [
                .hello(
                    InspectorHello(program: "lamps", pid: Int(getpid()), started: inspector.started, machines: 1)),
                .machine(InspectorMachine(id: 1, label: "lamp", state: "off", visit: 1, sequence: 0)),
            ])
        let records = messages.compactMap { message -> InspectorRecord? in
            if case .record(let record) = message { record } else { nil }
        }
        #expect(
            records == [
                InspectorRecord(
                    machine: 1, sequence: 1, visit: 1, before: "off", event: "flip", outcome: "moved", after: "on"),
                InspectorRecord(
                    machine: 1, sequence: 2, visit: 2, before: "on", event: "smash", outcome: "invalid",
                    reason: "lamps are not smashed", after: "on"),
                InspectorRecord(
                    machine: 1, sequence: 3, visit: 2, before: "on", event: "flip", outcome: "moved", after: "off"),
            ])
        #expect(messages.last == .bye)
    }

    @Test("a name nobody uses, a path that is not a socket, and a dead socket are errors with status 2")
    func badTargetsExitTwo() throws {
        let runtime = try RuntimeDirectory()
        let file = runtime.path + "/plain"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        for target in ["nobody", file, String(Int32.max)] {
            let result = Self.run(["inspect", target, "--headless"], environment: runtime.environment)
            #expect(result.status == 2)
            #expect(result.output == "")
            #expect(result.error.hasPrefix("statetui: inspect: "))
        }
    }

    @Test("two programs of one name are ambiguous: the error lists their pids")
    func ambiguousNameListsPids() throws {
        let runtime = try RuntimeDirectory()
        let inspector = try Inspector.start(name: "twin", directory: runtime.sockets)
        defer { inspector.stop() }
        // A second socket of the same name under pid 1, which exists (init).
        #expect(link(inspector.socketPath, runtime.sockets + "/twin.1.sock") == 0)
        let result = Self.run(["inspect", "twin", "--headless"], environment: runtime.environment)
        #expect(result.status == 2)
        #expect(result.error == "statetui: inspect: 2 programs are named twin; give a pid: 1, \(getpid())\n")
    }

    @Test("without --headless the target is resolved before the screens open: an unknown one exits 2")
    func screensOfAnUnknownTargetExitTwo() throws {
        let runtime = try RuntimeDirectory()
        let result = Self.run(["inspect", "lamps"], environment: runtime.environment)
        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(result.error == "statetui: inspect: no inspectable program named lamps; none is running\n")
    }
}
