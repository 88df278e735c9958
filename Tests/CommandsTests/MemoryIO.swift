import Commands
import Support

/// Standard input, files and both output streams in memory, so commands run without a process.
final class MemoryIO {
    var input: [String]
    var files: [String: Result<String, CommandIO.ReadError>]
    var output = ""
    var error = ""
    /// The options the dashboard was opened with, once per opening.
    var dashboards: [DashboardOptions] = []

    init(input: [String] = [], files: [String: Result<String, CommandIO.ReadError>] = [:]) {
        self.input = input
        self.files = files
    }

    var io: CommandIO {
        CommandIO(
            readInputLine: { [self] in input.isEmpty ? nil : input.removeFirst() },
            readFile: { [self] path in files[path] ?? .failure(CommandIO.ReadError("no such file")) },
            writeOutput: { [self] in output += $0 },
            writeError: { [self] in error += $0 })
    }

    /// Runs `statetui ARGUMENTS` in `environment` and returns the exit status. The command runs on a thread of
    /// its own, as it runs on the program's main thread: a demo or a headless copy blocks its thread while it
    /// waits for its machines, which a test's task must not do (the pool has one thread a core).
    func run(_ arguments: [String], environment: [String: String] = [:]) async -> Int32 {
        // The test awaits the thread's end, so only one thread at a time uses this object.
        nonisolated(unsafe) let memory = self
        return await DetachedThread.value(name: "statetui") {
            CommandLineTool.run(arguments, io: memory.io, environment: environment) { options in
                memory.dashboards.append(options)
                return 0
            }
        }
    }
}
