import Commands
import SeedModels
import Testing

/// Issue 29: `statetui completions SHELL` prints a script written from the commands' declarations, so every
/// command, option and fixed value `--help` lists is completed. (Tests/EndToEnd/completions.sh runs the scripts
/// in their shells.)
@Suite struct CompletionsCommandTests {
    @Test(arguments: CompletionsCommand.Shell.allCases)
    func theCommandPrintsTheShellsScript(shell: CompletionsCommand.Shell) async {
        let memory = MemoryIO()
        #expect(await memory.run(["completions", shell.rawValue]) == 0)
        #expect(memory.output == CompletionScript.statetui.text(for: shell))
        #expect(memory.error == "")
    }

    /// Every word a user can type is in every script: the commands, their flags and options, the top-level
    /// options and every fixed value (models, formats, charsets, shells, demos).
    @Test(arguments: CompletionsCommand.Shell.allCases)
    func everyDeclaredWordIsCompleted(shell: CompletionsCommand.Shell) {
        let script = CompletionScript.statetui.text(for: shell)
        let specs = CommandLineTool.commands + [CommandLineTool.helpSpec]
        var words = specs.map(\.name) + ["help", "version", "trace", "seed", "no-mouse", "inspectable"]
        for spec in specs {
            words += spec.flags.map(\.name) + spec.options.map(\.name)
            words += spec.options.flatMap { $0.offered.words } + spec.arguments.flatMap { $0.offered.words }
        }
        let missing = words.filter { !script.contains($0) }
        #expect(missing == [])
    }

    /// The paths a command takes are completed as files or directories, and nothing else is.
    @Test func argumentsNamingPathsCompleteThem() throws {
        let copy = try #require(CommandLineTool.commands.first { $0.name == "copy" })
        #expect(copy.arguments.map(\.offered) == [.files, .directories])
        let replay = try #require(CommandLineTool.commands.first { $0.name == "replay" })
        #expect(
            replay.arguments.map(\.offered) == [
                .init(words: ScreenModel.allCases.map(\.rawValue)), .files,
            ])
        let graph = try #require(CommandLineTool.commands.first { $0.name == "graph" })
        #expect(graph.options.map(\.offered.paths) == [nil, nil])
    }

    @Test func anUnknownShellIsAUsageError() async {
        let memory = MemoryIO()
        #expect(await memory.run(["completions", "tcsh"]) == 2)
        #expect(memory.output == "")
        #expect(
            memory.error == """
                statetui: 'tcsh' is not a valid value for <shell>; expected one of: bash, zsh, fish
                USAGE:
                  statetui completions <shell>
                See 'statetui help completions'.

                """)
    }
}
