import DashboardApp
import FileTransfer
import SeedModels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `statetui` command line: the dashboard (no command), `--help`, `--version`, `help COMMAND` and the
/// subcommands, parsed and run against a ``CommandIO``. `main.swift` only calls ``run(_:io:dashboard:)``
/// and exits with its result.
package enum CommandLineTool {
    /// The subcommands, in the order help lists them.
    package static let commands: [CommandSpec] = [
        ReplayCommand.spec, GraphCommand.spec, DemoCommand.spec, CopyCommand.spec, InspectCommand.spec,
        CompletionsCommand.spec, ConfigCommand.spec,
    ]

    /// The top-level usage lines.
    package static var usage: String {
        ([
            DashboardOptions.usage, "statetui <command> [<arguments>]", "statetui help <command>",
            "statetui --help | --version",
        ]
            + commands.map(\.usage)).map { "  " + $0 }.joined(separator: "\n")
    }

    /// `statetui --help`.
    package static var help: String {
        var lines = [
            "OVERVIEW: State machines from the screen-state seeds, driven and inspected from the terminal.",
            "", "USAGE:", usage, "",
            "With no command, statetui opens the dashboard (q quits, ? lists the keys).", "", "COMMANDS:",
        ]
        lines += commands.map { CommandSpec.row($0.name, $0.abstract) }
        lines.append(CommandSpec.row("help", "Show help for a command."))
        lines += [
            "", "OPTIONS:", CommandSpec.row("-h, --help", "Show help information."),
            CommandSpec.row("-V, --version", "Show the version."),
        ]
        lines += DashboardOptions.Option.allCases.map { option in
            CommandSpec.row(option.rawValue + (option.valueName.map { " <\($0)>" } ?? ""), option.help)
        }
        lines += ["", "GRAPH SAMPLE EVENTS (what 'statetui graph MODEL' sends in every state):"]
        lines += ScreenModel.allCases.map { "  \($0.rawValue): " + $0.sampleInputs.joined(separator: ", ") }
        lines += [
            "",
            "Exit status: 0 ok, 1 failure, 2 usage or environment error, 129/130/143 hung up/interrupted/terminated,",
            "141 standard output closed by its reader (as SIGPIPE).",
            "See 'statetui help <command>' for a command's arguments.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The words after the program name as the process got them: a word that is not UTF-8 (a path such as
    /// `bad\xffname`) keeps its bytes (``FileName``) instead of being repaired into another name.
    package static var processArguments: [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { word in
                var length = 0
                while word[length] != 0 { length += 1 }
                return FileName.string(
                    UnsafeBufferPointer(start: word, count: length).lazy.map { UInt8(bitPattern: $0) })
            }
        }
    }

    /// The process's environment variables, read from `environ` itself: FoundationEssentials' `ProcessInfo`,
    /// on its first use, did a sixth of the dashboard's work before its first frame (instantiating the generic
    /// types it keeps). As with `getenv`, the first of two variables of one name is the one seen.
    package static var processEnvironment: [String: String] {
        #if canImport(Darwin)
        guard var entry = _NSGetEnviron()?.pointee else { return [:] }
        #else
        var entry = environ
        #endif
        var variables: [String: String] = [:]
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "="), variables[String(text[..<equals])] == nil {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }

    /// Runs the words after the program name; returns the exit status. No words (or only dashboard
    /// options) call `dashboard`, which opens the terminal dashboard and returns its status.
    /// `environment` holds the process's variables (the terminal for `copy`, the copy's test knobs).
    package static func run(
        _ arguments: [String], io: CommandIO, environment: [String: String] = [:],
        dashboard: (DashboardOptions) -> Int32
    ) -> Int32 {
        do {
            // `statetui -- WORDS`: no options after `--`, so the first word is a command even when it starts
            // with a dash; `statetui --` alone is the dashboard.
            if arguments.first == "--" {
                let words = Array(arguments.dropFirst())
                guard !words.isEmpty else { return dashboard(DashboardOptions()) }
                return try dispatch(words, io: io, environment: environment, optionsEnded: true)
            }
            if var options = try DashboardOptions.parse(arguments) {
                guard !options.wantsHelp else {
                    io.writeOutput(help)
                    return 0
                }
                guard !options.wantsVersion else {
                    io.writeOutput(versionLine)
                    return 0
                }
                do {
                    options.config = try ConfigFile.load(explicit: options.configPath, io: io, environment: environment)
                } catch {
                    io.writeError("statetui: \(error)\n")
                    return 2
                }
                return dashboard(options)
            }
            return try dispatch(arguments, io: io, environment: environment)
        } catch {
            let spec = error.command.flatMap { name in commands.first { $0.name == name } }
            let usageLines = spec.map { "  " + $0.usage } ?? usage
            let more = spec.map { "statetui help \($0.name)" } ?? "statetui --help"
            io.writeError("statetui: \(error.message)\nUSAGE:\n\(usageLines)\nSee '\(more)'.\n")
            return 2
        }
    }

    /// What `-V` and `--version` print.
    static var versionLine: String { "statetui \(Version.current)\n" }

    /// `statetui help [<command>]`, declared like a command so that `help help` and `help --` work as
    /// anywhere else.
    package static let helpSpec = CommandSpec(
        name: "help", abstract: "Show help for a command, or the overview without one.",
        arguments: [
            .init(
                name: "command",
                help: "The command to describe: \((commands.map(\.name) + ["help"]).joined(separator: ", ")).",
                isOptional: true, completion: .init(words: commands.map(\.name) + ["help"]))
        ])

    /// Runs `arguments` as a command (or `--help`, `--version`, `help`). After `--` (`optionsEnded`), the first
    /// word is a command's name whatever it starts with.
    private static func dispatch(
        _ arguments: [String], io: CommandIO, environment: [String: String], optionsEnded: Bool = false
    ) throws(UsageError) -> Int32 {
        guard let first = arguments.first else { throw UsageError("missing command") }
        let rest = Array(arguments.dropFirst())
        switch optionsEnded && first.hasPrefix("-") ? "" : first {
        case "-h", "--help":
            guard rest.isEmpty else { throw UsageError("unexpected argument \(UsageError.quote(rest[0]))") }
            io.writeOutput(help)
            return 0
        case "-V", "--version":
            guard rest.isEmpty else { throw UsageError("unexpected argument \(UsageError.quote(rest[0]))") }
            io.writeOutput(versionLine)
            return 0
        case "help":
            // `help --help` asks for help on help: the overview, as `help` alone prints.
            let parsed = try helpSpec.parse(rest)
            switch parsed.wantsHelp ? nil : parsed.arguments["command"] {
            case nil: io.writeOutput(help)
            case helpSpec.name?: io.writeOutput(helpSpec.help)
            case let topic?:
                guard let spec = commands.first(where: { $0.name == topic }) else {
                    throw UsageError("unknown command \(UsageError.quote(topic))")
                }
                io.writeOutput(spec.help)
            }
            return 0
        default:
            guard let spec = commands.first(where: { $0.name == first }) else {
                throw first.hasPrefix("-") && !optionsEnded
                    ? UsageError("unknown option \(UsageError.quote(first))")
                    : UsageError("unknown command \(UsageError.quote(first))")
            }
            let parsed = try spec.parse(rest)
            if parsed.wantsHelp {
                io.writeOutput(spec.help)
                return 0
            }
            switch spec.name {
            case ReplayCommand.spec.name: return ReplayCommand.run(parsed, io: io)
            case GraphCommand.spec.name: return GraphCommand.run(parsed, io: io, environment: environment)
            case DemoCommand.spec.name: return try DemoCommand.run(parsed, io: io)
            case CopyCommand.spec.name: return try CopyCommand.run(parsed, io: io, environment: environment)
            case InspectCommand.spec.name: return try InspectCommand.run(parsed, io: io, environment: environment)
            case CompletionsCommand.spec.name: return CompletionsCommand.run(parsed, io: io)
            case ConfigCommand.spec.name: return ConfigCommand.run(parsed, io: io, environment: environment)
            default:
                preconditionFailure("Internal inconsistency: \(spec.name) is declared but not wired")
            }
        }
    }
}
