/// A subcommand's command line after parsing: every argument and option by name, validated
/// against its ``CommandSpec``, with defaults filled in.
package struct ParsedCommand: Hashable, Sendable {
    /// The subcommand's name.
    package var name: String
    /// Positional arguments by name; an optional one left out is absent.
    package var arguments: [String: String]
    /// Options by name, defaults included.
    package var options: [String: String]
    /// The words of a variadic positional argument, by name.
    package var lists: [String: [String]]
    /// The values of a repeatable option, in the order given, by name (absent when never given).
    package var repeated: [String: [String]] = [:]
    /// The flags given (names without dashes).
    package var flags: Set<String>
    /// Whether `-h`/`--help` was given, which wins over everything else.
    package var wantsHelp: Bool

    /// A parsed command line.
    package init(
        name: String, arguments: [String: String] = [:], options: [String: String] = [:],
        lists: [String: [String]] = [:], flags: Set<String> = [], wantsHelp: Bool = false
    ) {
        self.name = name
        self.arguments = arguments
        self.options = options
        self.lists = lists
        self.flags = flags
        self.wantsHelp = wantsHelp
    }
}

extension CommandSpec {
    /// Parses the words after the subcommand's name: positionals in order, `--name value` or
    /// `--name=value` anywhere, `--` ending options, `-h`/`--help` asking for help. Throws a
    /// ``UsageError`` naming the first thing that does not fit.
    package func parse(_ words: [String]) throws(UsageError) -> ParsedCommand {
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
            try take(word, from: words, at: &index, into: &parsed)
        }
        if parsed.wantsHelp { return parsed }
        for option in options where parsed.options[option.name] == nil {
            if let value = option.defaultValue { parsed.options[option.name] = value }
        }
        if let variadic = arguments.firstIndex(where: \.isVariadic) {
            try assignVariadic(positionals, variadicAt: variadic, to: &parsed)
        } else {
            try assign(positionals, to: &parsed)
        }
        return parsed
    }

    /// Takes the flag or option `word` (with its value: after `=`, or the next word, `index` then moved
    /// past it) into `parsed`.
    private func take(
        _ word: String, from words: [String], at index: inout Int, into parsed: inout ParsedCommand
    ) throws(UsageError) {
        let body = word.dropFirst(word.hasPrefix("--") ? 2 : 1)
        let optionName = String(body.prefix { $0 != "=" })
        if word.hasPrefix("--"), let flag = flags.first(where: { $0.name == optionName }) {
            guard !body.contains("=") else {
                throw UsageError("'--\(flag.name)' takes no value", command: name)
            }
            guard !parsed.flags.contains(flag.name) else {
                throw UsageError("'--\(flag.name)' is given more than once", command: name)
            }
            parsed.flags.insert(flag.name)
            return
        }
        guard word.hasPrefix("--"), let option = options.first(where: { $0.name == optionName }) else {
            throw UsageError("unknown option \(UsageError.quote(word.prefix { $0 != "=" }))", command: name)
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
        try check(value, allowed: option.allowedValues, what: "--\(option.name)")
        if option.isRepeatable {
            parsed.repeated[option.name, default: []].append(value)
            return
        }
        guard parsed.options[option.name] == nil else {
            throw UsageError("'--\(option.name)' is given more than once", command: name)
        }
        parsed.options[option.name] = value
    }

    /// Positionals when each argument takes one word, in order; optional ones may be left out at the end.
    private func assign(_ positionals: [String], to parsed: inout ParsedCommand) throws(UsageError) {
        for (position, argument) in arguments.enumerated() {
            guard position < positionals.count else {
                if argument.isOptional { continue }
                throw UsageError("missing <\(argument.name)>", command: name)
            }
            try check(positionals[position], allowed: argument.allowedValues, what: "<\(argument.name)>")
            parsed.arguments[argument.name] = positionals[position]
        }
        if positionals.count > arguments.count {
            throw UsageError("unexpected argument \(UsageError.quote(positionals[arguments.count]))", command: name)
        }
    }

    /// Positionals when one argument takes one or more words: the arguments before it take one word
    /// each from the front, those after it one each from the back, and it takes the rest.
    private func assignVariadic(
        _ positionals: [String], variadicAt variadic: Int, to parsed: inout ParsedCommand
    ) throws(UsageError) {
        let before = arguments[..<variadic]
        let after = arguments[(variadic + 1)...]
        guard positionals.count >= arguments.count else {
            let missing =
                positionals.count < before.count
                ? arguments[positionals.count]
                : positionals.count == arguments.count - 1 && !after.isEmpty
                    ? after.last! : arguments[variadic]
            throw UsageError("missing <\(missing.name)>", command: name)
        }
        for (position, argument) in before.enumerated() {
            try check(positionals[position], allowed: argument.allowedValues, what: "<\(argument.name)>")
            parsed.arguments[argument.name] = positionals[position]
        }
        let tail = positionals.count - after.count
        for (offset, argument) in after.enumerated() {
            try check(positionals[tail + offset], allowed: argument.allowedValues, what: "<\(argument.name)>")
            parsed.arguments[argument.name] = positionals[tail + offset]
        }
        let words = Array(positionals[before.count..<tail])
        for word in words {
            try check(word, allowed: arguments[variadic].allowedValues, what: "<\(arguments[variadic].name)>")
        }
        parsed.lists[arguments[variadic].name] = words
    }

    private func check(_ value: String, allowed: [String]?, what: String) throws(UsageError) {
        guard let allowed, !allowed.contains(value) else { return }
        throw UsageError(
            "\(UsageError.quote(value)) is not a valid value for \(what); expected one of: \(allowed.joined(separator: ", "))",
            command: name)
    }
}
