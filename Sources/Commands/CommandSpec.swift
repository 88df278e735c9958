/// The declaration of one subcommand, in the shape of swift-argument-parser's
/// `CommandConfiguration` plus its `@Argument`s and `@Option`s: enough to parse a command line and
/// to write its help, so the two cannot disagree.
package struct CommandSpec: Sendable {
    /// A positional argument (`@Argument`).
    package struct Argument: Sendable {
        /// The name shown in usage, e.g. `model` (printed `<model>`).
        package var name: String
        /// One line of help.
        package var help: String
        /// Whether it may be left out (printed `[<file>]`).
        package var isOptional = false
        /// The values it accepts, or nil for any value.
        package var allowedValues: [String]? = nil
        /// Whether it takes one or more words (printed `<source> ...`); at most one argument may.
        var isVariadic = false
        /// What a shell completes for it beyond ``allowedValues`` (files, directories, suggested words).
        package var completion = ValueCompletion.none

        /// What a shell offers for it: the allowed values when they are fixed, else ``completion``.
        package var offered: ValueCompletion { allowedValues.map { ValueCompletion(words: $0) } ?? completion }
    }

    /// An option without a value, `--name` (`@Flag`): present or absent.
    package struct Flag: Sendable {
        /// The long name without dashes, e.g. `headless`.
        package var name: String
        /// One line of help.
        package var help: String
    }

    /// An option with a value, `--name value` or `--name=value` (`@Option`).
    package struct Option: Sendable {
        /// The long name without dashes, e.g. `format`.
        package var name: String
        /// The name of its value in usage, e.g. `format` (printed `<format>`).
        package var valueName: String
        /// One line of help.
        package var help: String
        /// The values it accepts, or nil for any value.
        package var allowedValues: [String]? = nil
        /// The value used when the option is absent (nil: the option is simply absent).
        package var defaultValue: String?
        /// Given any number of times, its values collected in order in ``ParsedCommand/repeated``.
        package var isRepeatable = false
        /// What a shell completes for its value beyond ``allowedValues``.
        package var completion = ValueCompletion.none

        /// What a shell offers for its value: the allowed values when they are fixed, else ``completion``.
        package var offered: ValueCompletion { allowedValues.map { ValueCompletion(words: $0) } ?? completion }
    }

    /// What a shell's completion offers for a value: suggested words, paths, both or nothing. Declared beside
    /// each argument and option, so `statetui completions` is written from the same list as `--help`.
    package struct ValueCompletion: Hashable, Sendable {
        /// The kind of path a value names.
        package enum Paths: Hashable, Sendable {
            /// Any file or directory.
            case files
            /// Directories only.
            case directories
        }

        /// Words offered, e.g. the model names.
        package var words: [String] = []
        /// Paths offered, if the value names one.
        package var paths: Paths? = nil

        /// Offers `words` and, with `paths`, the paths of that kind.
        package init(words: [String] = [], paths: Paths? = nil) {
            self.words = words
            self.paths = paths
        }

        /// Nothing to offer (a number, a glob).
        package static let none = ValueCompletion()
        /// Any file or directory.
        package static let files = ValueCompletion(paths: .files)
        /// Directories only.
        package static let directories = ValueCompletion(paths: .directories)
    }

    /// The subcommand's name, e.g. `replay`.
    package var name: String
    /// One line saying what it does.
    package var abstract: String
    /// Its positional arguments, in order.
    package var arguments: [Argument]
    /// Its options.
    package var options: [Option]
    /// Its flags.
    package var flags: [Flag]
    /// Longer help printed after the arguments and options.
    var discussion: String

    /// A subcommand declaration.
    package init(
        name: String, abstract: String, arguments: [Argument] = [], options: [Option] = [], flags: [Flag] = [],
        discussion: String = ""
    ) {
        precondition(arguments.filter(\.isVariadic).count <= 1, "\(name): at most one variadic argument")
        self.name = name
        self.abstract = abstract
        self.arguments = arguments
        self.options = options
        self.flags = flags
        self.discussion = discussion
    }

    /// `statetui graph <model> [--format <format>]`.
    package var usage: String {
        var parts = ["statetui", name]
        for argument in arguments {
            let word = argument.isVariadic ? "<\(argument.name)> ..." : "<\(argument.name)>"
            parts.append(argument.isOptional ? "[\(word)]" : word)
        }
        for flag in flags { parts.append("[--\(flag.name)]") }
        for option in options { parts.append("[--\(option.name) <\(option.valueName)>]") }
        return parts.joined(separator: " ")
    }

    /// The full help text for `statetui help NAME` and `statetui NAME --help`.
    package var help: String {
        var lines = ["OVERVIEW: \(abstract)", "", "USAGE: \(usage)"]
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            for argument in arguments {
                lines.append(Self.row("<\(argument.name)>", argument.help + Self.choices(argument.allowedValues)))
            }
        }
        lines += ["", "OPTIONS:"]
        for flag in flags { lines.append(Self.row("--\(flag.name)", flag.help)) }
        for option in options {
            lines.append(
                Self.row(
                    "--\(option.name) <\(option.valueName)>",
                    option.help + Self.choices(option.allowedValues)
                        + (option.defaultValue.map { " (default: \($0))" } ?? "")))
        }
        lines.append(Self.row("-h, --help", "Show help information."))
        if !discussion.isEmpty { lines += ["", discussion] }
        return lines.joined(separator: "\n") + "\n"
    }

    static func row(_ name: String, _ help: String) -> String {
        let padded = name.count < 24 ? name + String(repeating: " ", count: 24 - name.count) : name + " "
        return "  " + padded + help
    }

    private static func choices(_ values: [String]?) -> String {
        guard let values else { return "" }
        return " (\(values.joined(separator: "|")))"
    }
}
