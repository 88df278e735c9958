import Testing

@testable import Commands

@Suite struct CommandSpecTests {
    static let spec = CommandSpec(
        name: "graph", abstract: "Explore.",
        arguments: [
            .init(name: "model", help: "The model.", allowedValues: ["transfer", "load"]),
            .init(name: "file", help: "A file.", isOptional: true),
        ],
        options: [
            .init(
                name: "format", valueName: "format", help: "How.", allowedValues: ["mermaid", "dot"],
                defaultValue: "mermaid")
        ])

    @Test(arguments: [
        (["transfer"], ParsedCommand(name: "graph", arguments: ["model": "transfer"], options: ["format": "mermaid"])),
        (
            ["load", "x.txt"],
            ParsedCommand(name: "graph", arguments: ["model": "load", "file": "x.txt"], options: ["format": "mermaid"])
        ),
        (
            ["transfer", "--format", "dot"],
            ParsedCommand(name: "graph", arguments: ["model": "transfer"], options: ["format": "dot"])
        ),
        (
            ["--format=dot", "transfer"],
            ParsedCommand(name: "graph", arguments: ["model": "transfer"], options: ["format": "dot"])
        ),
        (
            ["transfer", "--", "--odd-name"],
            ParsedCommand(
                name: "graph", arguments: ["model": "transfer", "file": "--odd-name"], options: ["format": "mermaid"])
        ),
        (
            ["transfer", "-"],
            ParsedCommand(name: "graph", arguments: ["model": "transfer", "file": "-"], options: ["format": "mermaid"])
        ),
        (["--help"], ParsedCommand(name: "graph", wantsHelp: true)),
        (
            ["nonsense", "-h", "--format", "dot"],
            ParsedCommand(name: "graph", options: ["format": "dot"], wantsHelp: true)
        ),
    ])
    func parsesArgumentsAndOptions(words: [String], expected: ParsedCommand) throws {
        #expect(try Self.spec.parse(words) == expected)
    }

    @Test(arguments: [
        ([String](), "missing <model>"),
        (["transfer", "--fromat", "dot"], "unknown option '--fromat'"),
        (["transfer", "-f", "dot"], "unknown option '-f'"),
        (["transfer", "--format"], "missing value for '--format <format>'"),
        (["transfer", "--format", "svg"], "'svg' is not a valid value for --format; expected one of: mermaid, dot"),
        (["transfer", "--format", "dot", "--format=dot"], "'--format' is given more than once"),
        (["upload"], "'upload' is not a valid value for <model>; expected one of: transfer, load"),
        (["transfer", "a", "b"], "unexpected argument 'b'"),
    ])
    func rejectsWhatDoesNotFit(words: [String], message: String) {
        #expect(throws: UsageError(message, command: "graph")) { try Self.spec.parse(words) }
    }

    @Test func usageAndHelpComeFromTheDeclaration() {
        #expect(Self.spec.usage == "statetui graph <model> [<file>] [--format <format>]")
        #expect(
            Self.spec.help == """
                OVERVIEW: Explore.

                USAGE: statetui graph <model> [<file>] [--format <format>]

                ARGUMENTS:
                  <model>                 The model. (transfer|load)
                  <file>                  A file.

                OPTIONS:
                  --format <format>       How. (mermaid|dot) (default: mermaid)
                  -h, --help              Show help information.

                """)
    }
}
