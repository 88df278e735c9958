/// A subcommand's command line after parsing: every argument and option by name, validated
/// against its ``CommandSpec``, with defaults filled in.
public struct ParsedCommand: Hashable, Sendable {
    /// The subcommand's name.
    public var name: String
    /// Positional arguments by name; an optional one left out is absent.
    public var arguments: [String: String]
    /// Options by name, defaults included.
    public var options: [String: String]
    /// Whether `-h`/`--help` was given, which wins over everything else.
    public var wantsHelp: Bool
    /// The flags given (names without dashes).
    public var flags: Set<String> = []

    /// A parsed command line.
    public init(
        name: String, arguments: [String: String] = [:], options: [String: String] = [:], wantsHelp: Bool = false
    ) {
        self.name = name
        self.arguments = arguments
        self.options = options
        self.wantsHelp = wantsHelp
    }
}

extension CommandSpec {
    /// Parses the words after the subcommand's name: positionals in order, `--name value` or
    /// `--name=value` anywhere, `--` ending options, `-h`/`--help` asking for help. Throws a
    /// ``UsageError`` naming the first thing that does not fit.
    public func parse(_ words: [String]) throws(UsageError) -> ParsedCommand {
        var parsed = ParsedCommand(name: name)
        var positionals: [String] = []
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            if word == "-h" || word == "--help" {
                parsed.wantsHelp = true
                continue
            }
            if word.hasPrefix("--"), let flag = flags.first(where: { "--" + $0.name == word }) {
                guard parsed.flags.insert(flag.name).inserted else {
                    throw UsageError("'--\(flag.name)' is given more than once", command: name)
                }
                continue
            }
            let body = word.dropFirst(word.hasPrefix("--") ? 2 : 1)
            let optionName = String(body.prefix { $0 != "=" })
            guard word.hasPrefix("--"), let option = options.first(where: { $0.name == optionName }) else {
                throw UsageError("unknown option '\(word.prefix { $0 != "=" })'", command: name)
            }
            let value: String
            if let equals = body.firstIndex(of: "=") {
                value = String(body[body.index(after: equals)...])
            } else {
                guard index < words.count else {
                    throw UsageError("missing value for '--\(option.name) <\(option.valueName)>'", command: name)
                }
                value = words[index]
                index += 1
            }
            guard parsed.options[option.name] == nil else {
                throw UsageError("'--\(option.name)' is given more than once", command: name)
            }
            try check(value, allowed: option.allowedValues, what: "--\(option.name)")
            parsed.options[option.name] = value
        }
        if parsed.wantsHelp { return parsed }
        for option in options where parsed.options[option.name] == nil {
            if let value = option.defaultValue { parsed.options[option.name] = value }
        }
        for (position, argument) in arguments.enumerated() {
            guard position < positionals.count else {
                if argument.isOptional { continue }
                throw UsageError("missing <\(argument.name)>", command: name)
            }
            try check(positionals[position], allowed: argument.allowedValues, what: "<\(argument.name)>")
            parsed.arguments[argument.name] = positionals[position]
        }
        if positionals.count > arguments.count {
            throw UsageError("unexpected argument '\(positionals[arguments.count])'", command: name)
        }
        return parsed
    }

    private func check(_ value: String, allowed: [String]?, what: String) throws(UsageError) {
        guard let allowed, !allowed.contains(value) else { return }
        throw UsageError(
            "'\(value)' is not a valid value for \(what); expected one of: \(allowed.joined(separator: ", "))",
            command: name)
    }
}
