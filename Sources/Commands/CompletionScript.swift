/// The command line as a shell completes it, and the bash, zsh and fish scripts written from it. Everything
/// comes from the declarations `--help` is written from (``CommandSpec``, ``DashboardOptions/Option``), so a
/// new command, option or model name reaches the completions without an edit here.
package struct CompletionScript {
    /// An option as a shell offers it.
    struct Option {
        /// The one-letter name, e.g. `h` for `-h`.
        var short: Character?
        /// The long name without dashes, e.g. `help`.
        var long: String
        /// One line of help.
        var help: String
        /// What its value completes to; nil for a flag (it takes no value).
        var value: CommandSpec.ValueCompletion?
        /// The name of its value, e.g. `format`.
        var valueName = ""
        /// Whether it may be given again.
        var isRepeatable = false
        /// Whether nothing may follow it (`--help`, `--version`).
        var isFinal = false
    }

    /// A command as a shell completes it.
    struct Command {
        /// Its name.
        var name: String
        /// One line saying what it does.
        var help: String
        /// Its options, `-h`/`--help` included.
        var options: [Option]
        /// Its positional arguments, in order.
        var arguments: [CommandSpec.Argument]
    }

    /// The options that open the dashboard or stand alone before any command.
    var options: [Option]
    /// The commands, in the order help lists them.
    var commands: [Command]

    init(options: [Option], commands: [Command]) {
        self.options = options
        self.commands = commands
    }

    /// The statetui command line: `-h`/`--help`, `-V`/`--version`, the dashboard's options and every command
    /// with `help` last, as `statetui --help` lists them.
    package static var statetui: CompletionScript {
        let help = Option(short: "h", long: "help", help: "Show help information.", isFinal: true)
        let version = Option(short: "V", long: "version", help: "Show the version.", isFinal: true)
        let dashboard = DashboardOptions.Option.allCases.map { option in
            Option(
                long: String(option.rawValue.dropFirst(2)), help: option.help, value: option.completion,
                valueName: option.valueName ?? "")
        }
        let commands = (CommandLineTool.commands + [CommandLineTool.helpSpec]).map { spec in
            Command(
                name: spec.name, help: spec.abstract,
                options: spec.flags.map { Option(long: $0.name, help: $0.help) }
                    + spec.options.map {
                        Option(
                            long: $0.name, help: $0.help, value: $0.offered, valueName: $0.valueName,
                            isRepeatable: $0.isRepeatable)
                    } + [help],
                arguments: spec.arguments)
        }
        return CompletionScript(options: [help, version] + dashboard, commands: commands)
    }

    /// The script for `shell`.
    package func text(for shell: CompletionsCommand.Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    // MARK: - What every script needs

    /// `(command, option)` for every option that takes a value; the top level's command is "".
    private var valueOptions: [(command: String, option: Option)] {
        options.filter { $0.value != nil }.map { ("", $0) }
            + commands.flatMap { command in command.options.filter { $0.value != nil }.map { (command.name, $0) } }
    }

    /// Each argument's position pattern (`0`, `1`, or `*` from a variadic one on) and what it completes to.
    /// A variadic argument takes every word from its place, so the arguments after it complete like it.
    private static func positions(of command: Command) -> [(position: String, argument: CommandSpec.Argument)] {
        var positions: [(String, CommandSpec.Argument)] = []
        for (index, argument) in command.arguments.enumerated() {
            if argument.isVariadic {
                positions.append(("*", argument))
                break
            }
            positions.append((String(index), argument))
        }
        return positions
    }

    private static func header(_ shell: CompletionsCommand.Shell) -> String {
        "# \(shell.rawValue) completion for statetui, written by 'statetui completions \(shell.rawValue)' from the "
            + "commands' declarations."
    }

    // MARK: - bash

    /// Single-quoted for a POSIX shell.
    private static func bashQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }

    /// `_statetui_offer "$cur" 'WORDS' -f`: the call offering `completion`.
    private static func bashOffer(_ completion: CommandSpec.ValueCompletion) -> String {
        let paths =
            switch completion.paths {
            case .files?: " -f"
            case .directories?: " -d"
            case nil: ""
            }
        return "_statetui_offer \"$cur\" \(bashQuoted(completion.words.joined(separator: " ")))\(paths)"
    }

    private static func bashOptionWords(_ options: [Option]) -> String {
        bashQuoted(
            options.flatMap { option in (option.short.map { ["-\($0)"] } ?? []) + ["--\(option.long)"] }
                .joined(separator: " "))
    }

    private var bash: String {
        let lines =
            [Self.header(.bash), ""] + Self.bashOfferFunction + ["_statetui() {"] + bashWordScan + bashValueCases
            + bashOptionCases + bashArgumentCases + ["}", "", "complete -F _statetui statetui"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `_statetui_offer`, which every completion calls.
    private static let bashOfferFunction = [
        "# Offers the words in $2 and, with $3 (-f files, -d directories), the paths that complete $1.",
        "_statetui_offer() {",
        "    COMPREPLY=()",
        "    if [[ -n $2 ]]; then",
        "        mapfile -t COMPREPLY < <(compgen -W \"$2\" -- \"$1\")",
        "    fi",
        "    if [[ -n $3 ]]; then",
        "        compopt -o filenames 2>/dev/null",
        "        mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen \"$3\" -- \"$1\")",
        "    fi",
        "}", "",
    ]

    /// The loop over the words before the cursor: which command, which argument position, and whether the
    /// word being completed is an option's value.
    private var bashWordScan: [String] {
        let valuePatterns = valueOptions.map { Self.bashQuoted("\($0.command) --\($0.option.long)") }
        return [
            "    local cur=${COMP_WORDS[COMP_CWORD]} command= position=0 ended= value= option= dashboard= word i",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        word=${COMP_WORDS[i]}",
            "        if [[ -n $value ]]; then",
            "            [[ $word == = ]] || value=",
            "            continue",
            "        fi",
            "        if [[ -z $ended && $word == -?* ]]; then",
            "            if [[ $word == -- ]]; then",
            "                ended=1",
            "                continue",
            "            fi",
            "            [[ -z $command ]] && dashboard=1",
            "            case \"$command $word\" in",
            "                \(valuePatterns.joined(separator: " | ")) ) value=1 option=$word ;;",
            "            esac",
            "            continue",
            "        fi",
            "        if [[ -z $command && -z $dashboard ]]; then",
            "            command=$word",
            "            ended=",
            "        else",
            "            position=$((position + 1))",
            "        fi",
            "    done",
        ]
    }

    /// An option's value: what that option takes.
    private var bashValueCases: [String] {
        var lines = [
            "    if [[ -n $value ]]; then",
            "        case \"$command $option\" in",
        ]
        for (command, option) in valueOptions {
            lines.append(
                "            \(Self.bashQuoted("\(command) --\(option.long)"))) \(Self.bashOffer(option.value!)) ;;")
        }
        return lines + [
            "            *) COMPREPLY=() ;;",
            "        esac",
            "        return 0",
            "    fi",
        ]
    }

    /// A word starting with `-`: the options of the command (or of the dashboard).
    private var bashOptionCases: [String] {
        var lines = [
            "    if [[ -z $ended && $cur == -* ]]; then",
            "        case $command in",
            "            '') _statetui_offer \"$cur\" \(Self.bashOptionWords(options)) ;;",
        ]
        for command in commands {
            lines.append(
                "            \(command.name)) _statetui_offer \"$cur\" \(Self.bashOptionWords(command.options)) ;;")
        }
        return lines + [
            "        esac",
            "        return 0",
            "    fi",
        ]
    }

    /// Anything else: a command name, or the argument at its position.
    private var bashArgumentCases: [String] {
        var lines = [
            "    case \"$command $position\" in",
            "        ' 0') [[ -z $dashboard ]] && \(Self.bashOffer(.init(words: commands.map(\.name)))) ;;",
        ]
        for command in commands {
            for (position, argument) in Self.positions(of: command) {
                let pattern =
                    position == "*"
                    ? Self.bashQuoted(command.name + " ") + "*" : Self.bashQuoted("\(command.name) \(position)")
                lines.append("        \(pattern)) \(Self.bashOffer(argument.offered)) ;;")
            }
        }
        return lines + [
            "        *) COMPREPLY=() ;;",
            "    esac",
            "    return 0",
        ]
    }

    // MARK: - zsh

    /// Escaped for the inside of a single-quoted `_arguments` spec: quotes closed and reopened, brackets and
    /// colons taken literally.
    private static func zshSpecText(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("'", with: "'\\''")
            .replacing("[", with: "\\[").replacing("]", with: "\\]")
            .replacing(":", with: "\\:")
    }

    /// The action completing `completion`: `(words)`, `_files`, `_files -/`, both, or nothing (a space).
    private static func zshAction(_ completion: CommandSpec.ValueCompletion) -> String {
        let words = "(" + completion.words.map(zshSpecText).joined(separator: " ") + ")"
        let paths: String? =
            switch completion.paths {
            case .files?: "_files"
            case .directories?: "_files -/"
            case nil: nil
            }
        switch (completion.words.isEmpty, paths) {
        case (true, nil): return " "
        case (false, nil): return words
        case (true, let paths?): return paths
        case (false, let paths?): return "{_alternative \"values:value:\(words)\" \"paths:path:\(paths)\"}"
        }
    }

    /// The `_arguments` specs of `option`: `'--name[help]'`, `'--name=[help]:value:action'`, with `-h`/`--help`
    /// as a pair excluding everything else.
    private static func zshSpecs(_ option: Option, excluding: String) -> String {
        let names = option.short.map { "{-\($0),--\(option.long)}" } ?? "--\(option.long)"
        let exclusion = option.isFinal ? "'(- *)'" : excluding.isEmpty ? "" : "'(\(excluding))'"
        let repeatable = option.isRepeatable ? "'*'" : ""
        let help = "'[" + zshSpecText(option.help) + "]"
        guard let value = option.value else { return exclusion + repeatable + names + help + "'" }
        let name = zshSpecText(option.valueName.isEmpty ? "value" : option.valueName)
        return exclusion + repeatable + names + "=" + help + ":" + name + ":" + zshAction(value) + "'"
    }

    private var zsh: String {
        var lines = [
            "#compdef statetui", Self.header(.zsh), "",
            "_statetui() {",
            "    local curcontext=$curcontext state state_descr line ret=1",
            "    typeset -A opt_args",
            "    _arguments -C \\",
        ]
        for option in options {
            // A dashboard option opens the dashboard: no command follows it.
            lines.append("        \(Self.zshSpecs(option, excluding: "1 *")) \\")
        }
        lines += [
            "        '1: :->command' \\",
            "        '*:: :->argument' && ret=0",
            "    case $state in",
        ]
        lines += zshCommandList + zshCommandArguments
        lines += [
            "    esac",
            "    return ret",
            "}", "",
            "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then",
            "    _statetui \"$@\"",
            "else",
            "    compdef _statetui statetui",
            "fi",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `command` state: the commands, each with its help.
    private var zshCommandList: [String] {
        var lines = [
            "        (command)",
            "            local -a commands=(",
        ]
        for command in commands {
            lines.append("                '\(Self.zshSpecText(command.name)):\(Self.zshSpecText(command.help))'")
        }
        return lines + [
            "            )",
            "            _describe -t commands 'statetui command' commands && ret=0",
            "            ;;",
        ]
    }

    /// The `argument` state: each command's options and arguments.
    private var zshCommandArguments: [String] {
        var lines = [
            "        (argument)",
            "            curcontext=${curcontext%:*:*}:statetui-$words[1]:",
            "            case $words[1] in",
        ]
        for command in commands {
            lines += ["                (\(command.name))", "                    _arguments \\"]
            for option in command.options {
                lines.append("                        \(Self.zshSpecs(option, excluding: "")) \\")
            }
            for (position, argument) in Self.positions(of: command) {
                let place =
                    position == "*"
                    ? "*:" : argument.isOptional ? "\(Int(position)! + 1)::" : "\(Int(position)! + 1):"
                lines.append(
                    "                        '\(place)\(Self.zshSpecText(argument.name)):\(Self.zshAction(argument.offered))' \\"
                )
            }
            lines[lines.count - 1].removeLast(2)
            lines[lines.count - 1] += " && ret=0"
            lines.append("                    ;;")
        }
        return lines + [
            "            esac",
            "            ;;",
        ]
    }

    // MARK: - fish

    /// Single-quoted for fish, where a backslash and a quote are escaped inside quotes.
    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    /// The `complete` flags offering `completion` as an option's value or an argument.
    private static func fishOffer(_ completion: CommandSpec.ValueCompletion) -> String {
        var flags: [String] = []
        switch completion.paths {
        case .files?: flags.append("-F")
        case .directories?: flags.append("-x -a '(__fish_complete_directories (commandline -ct))'")
        case nil: flags.append("-x")
        }
        if !completion.words.isEmpty { flags.append("-a " + fishQuoted(completion.words.joined(separator: " "))) }
        return flags.joined(separator: " ")
    }

    private static func fishOption(_ option: Option, at place: String) -> String {
        var line = "complete -c statetui -n \(fishQuoted("__statetui_at \(place)"))"
        if let short = option.short { line += " -s \(short)" }
        line += " -l \(option.long)"
        if let value = option.value { line += " " + (value.paths == .files ? "-r " : "") + fishOffer(value) }
        return line + " -d " + fishQuoted(option.help)
    }

    private var fish: String {
        var lines = [Self.header(.fish), ""] + fishPlaceFunctions + ["complete -c statetui -f"]
        for option in options {
            lines.append(Self.fishOption(option, at: ":0 :value dashboard"))
        }
        for command in commands {
            lines.append(
                "complete -c statetui -n '__statetui_at :0' -a \(Self.fishQuoted(command.name)) -d \(Self.fishQuoted(command.help))"
            )
        }
        for command in commands {
            for option in command.options {
                lines.append(Self.fishOption(option, at: Self.fishQuoted("\(command.name):*")))
            }
            for (position, argument) in Self.positions(of: command) {
                let place = Self.fishQuoted("\(command.name):\(position)")
                lines.append(
                    "complete -c statetui -n \(Self.fishQuoted("__statetui_at \(place)")) \(Self.fishOffer(argument.offered)) -d \(Self.fishQuoted(argument.help))"
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The functions that tell where the word being completed is (`COMMAND:POSITION`, an option's value, or
    /// the dashboard's options), which every completion's condition asks.
    private var fishPlaceFunctions: [String] {
        let valuePatterns = valueOptions.map { Self.fishQuoted("\($0.command) --\($0.option.long)") }
        return [
            "function __statetui_takes_value --description 'Whether option $argv[2] of command $argv[1] takes a value'",
            "    switch \"$argv[1] $argv[2]\"",
            "        case \(valuePatterns.joined(separator: " "))",
            "            return 0",
            "    end",
            "    return 1",
            "end", "",
        ] + Self.fishWhereFunction + [
            "function __statetui_at --description 'Whether the word being completed is at one of the places $argv'",
            "    set -l where (__statetui_where)",
            "    for place in $argv",
            "        string match -q -- $place $where; and return 0",
            "    end",
            "    return 1",
            "end", "",
        ]
    }

    /// `__statetui_where`: the loop over the words before the cursor, as bash's.
    private static let fishWhereFunction = [
        "function __statetui_where --description 'COMMAND:POSITION of the word being completed; value after an option'",
        "    set -l command ''",
        "    set -l position 0",
        "    set -l value 0",
        "    set -l ended 0",
        "    set -l dashboard 0",
        "    for word in (commandline -opc)[2..-1]",
        "        if test $value = 1",
        "            set value 0",
        "            continue",
        "        end",
        "        if test $ended = 0; and string match -qr -- '^-.' $word",
        "            if test $word = --",
        "                set ended 1",
        "                continue",
        "            end",
        "            if test -z \"$command\"",
        "                set dashboard 1",
        "            end",
        "            if not string match -q -- '*=*' $word; and __statetui_takes_value \"$command\" $word",
        "                set value 1",
        "            end",
        "            continue",
        "        end",
        "        if test -z \"$command\" -a $dashboard = 0",
        "            set command $word",
        "            set ended 0",
        "        else",
        "            set position (math $position + 1)",
        "        end",
        "    end",
        "    if test $value = 1",
        "        echo \"$command:value\"",
        "    else if test $dashboard = 1 -a -z \"$command\"",
        "        echo dashboard",
        "    else",
        "        echo \"$command:$position\"",
        "    end",
        "end", "",
    ]
}
