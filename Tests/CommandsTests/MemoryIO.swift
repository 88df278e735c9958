import Commands

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

    /// Runs `statetui ARGUMENTS` in `environment` and returns the exit status.
    func run(_ arguments: [String], environment: [String: String] = [:]) -> Int32 {
        CommandLineTool.run(arguments, io: io, environment: environment) { [self] options in
            dashboards.append(options)
            return 0
        }
    }
}
