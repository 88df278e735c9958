/// `statetui completions bash|zsh|fish`: prints the shell completion script written from the commands'
/// declarations (``CommandSpec``), the same list `--help` is written from, so the two cannot disagree.
package enum CompletionsCommand {
    /// The shells a script is written for.
    package enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    package static let spec = CommandSpec(
        name: "completions",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        arguments: [
            .init(
                name: "shell", help: "The shell the script is for.", allowedValues: Shell.allCases.map(\.rawValue))
        ],
        discussion: """
            The script completes the commands, their options, the model, demo and shell names, and files
            where a command takes a path. 'make install' installs the three scripts; to load one by hand:
              bash: source <(statetui completions bash)
              zsh:  statetui completions zsh > "${fpath[1]}/_statetui"   (then start a new shell)
              fish: statetui completions fish > ~/.config/fish/completions/statetui.fish
            """)

    /// Runs the parsed command.
    static func run(_ command: ParsedCommand, io: CommandIO) -> Int32 {
        guard let shell = command.arguments["shell"].flatMap(Shell.init(rawValue:)) else {
            preconditionFailure("Internal inconsistency: completions' spec admitted \(command)")
        }
        io.writeOutput(CompletionScript.statetui.text(for: shell))
        return 0
    }
}
