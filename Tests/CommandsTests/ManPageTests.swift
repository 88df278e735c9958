import Commands
import DashboardApp
import Foundation
import SeedModels
import Testing

/// `Resources/statetui.1` and the command line's own help describe the same tool: every command,
/// option, flag and value the CLI declares is in the man page, and everything the man page documents
/// exists in the CLI.
@Suite struct ManPageTests {
    /// The man page's mdoc source.
    static let manPage: String = {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent("Resources/statetui.1")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// The lines of one `.Sh NAME` section, up to the next `.Sh`.
    static func section(_ name: String) -> [Substring] {
        let lines = manPage.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(".Sh \(name)")) else { return [] }
        let rest = lines[(start + 1)...]
        return Array(rest.prefix { !$0.hasPrefix(".Sh ") })
    }

    /// The words that follow `macro` on any line, up to the next mdoc macro (`Ar`, `Op`, `Ns`, …);
    /// `|` and trailing punctuation are skipped. `.Fl -help | -version` gives `-help`, `-version`.
    static func arguments(of macro: String, in lines: [Substring]) -> Set<String> {
        var found: Set<String> = []
        for line in lines where line.hasPrefix(".") {
            let words = line.dropFirst().split(separator: " ")
            var collecting = false
            for word in words {
                if word == Substring(macro) {
                    collecting = true
                } else if word.count == 2, word.first?.isUppercase == true {
                    collecting = false  // another macro ends the list
                } else if collecting, word != "|" {
                    let trimmed = word.trimmingCharacters(in: CharacterSet(charactersIn: ",.;:()"))
                    if !trimmed.isEmpty { found.insert(trimmed) }
                }
            }
        }
        return found
    }

    /// Every `--option` and `-o` the man page marks with `Fl`, with its dashes.
    static var manOptions: Set<String> {
        Set(arguments(of: "Fl", in: manPage.split(separator: "\n")).map { "-" + $0 })
    }

    /// The options of the top-level help's OPTIONS section, e.g. `-h`, `--help`, `--trace`.
    static var topLevelOptions: Set<String> {
        let help = CommandLineTool.help
        let options = help.components(separatedBy: "OPTIONS:\n").dropFirst().first ?? ""
        let block = options.components(separatedBy: "\n\n").first ?? ""
        var found: Set<String> = []
        for line in block.split(separator: "\n") {
            let names = line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ").first ?? ""
            for word in names.split(whereSeparator: { $0 == " " || $0 == "," }) where word.hasPrefix("-") {
                found.insert(String(word))
            }
        }
        return found
    }

    /// Every option of every command, with its dashes.
    static var commandOptions: Set<String> {
        Set(
            CommandLineTool.commands.flatMap { spec in
                spec.flags.map { "--" + $0.name } + spec.options.map { "--" + $0.name }
            })
    }

    /// Issue 24: the man page as `man` shows it (groff, which .ci/run installs): keys in one pair of angle
    /// brackets each (`⟨Up⟩/⟨Down⟩`, never `⟨Up/⟨Down⟩⟩`), and the replay verdicts include `postpone`.
    @Test func theRenderedManPageShowsKeysAndVerdictsRight() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let groff = Process()
        groff.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        groff.arguments = [
            "groff", "-mandoc", "-Tutf8", "-P-cbou", root.appendingPathComponent("Resources/statetui.1").path,
        ]
        let output = Pipe()
        groff.standardOutput = output
        groff.standardError = FileHandle.nullDevice
        try groff.run()
        let rendered = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        groff.waitUntilExit()
        #expect(groff.terminationStatus == 0, "groff is needed to render the man page (.ci/run installs it)")
        let nested = rendered.split(separator: "\n").filter { $0.contains(/⟨[^⟩]*⟨/) }
        #expect(nested == [])
        for keys in ["⟨Up⟩/⟨Down⟩", "⟨PgUp⟩/⟨PgDn⟩", "⟨Left⟩/⟨Right⟩", "⟨Tab⟩/⟨Shift-Tab⟩"] {
            #expect(rendered.contains(keys), "\(keys) is not rendered")
        }
        let flat = rendered.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("‘to’, ‘update’, ‘stay’, ‘ignore’, ‘invalid’ or ‘postpone’"))
    }

    @Test func theManPageIsRead() {
        #expect(Self.manPage.hasPrefix(".\\\" statetui(1)"))
        #expect(
            Self.topLevelOptions == [
                "-h", "--help", "-V", "--version", "--trace", "--seed", "--no-mouse", "--inspectable", "--config",
            ])
    }

    @Test func everyCommandIsDocumented() {
        let documented = Self.arguments(of: "Cm", in: Self.section("COMMANDS").filter { $0.hasPrefix(".It ") })
        let names = Set(CommandLineTool.commands.map(\.name) + ["help"])
        #expect(names.subtracting(documented) == [], "commands missing from the man page's COMMANDS")
        let synopsis = Self.arguments(of: "Cm", in: Self.section("SYNOPSIS"))
        #expect(names.subtracting(synopsis) == [], "commands missing from the man page's SYNOPSIS")
    }

    @Test func everyDocumentedCommandExists() {
        let items = Self.section("COMMANDS").filter { $0.hasPrefix(".It Cm ") }
        let documented = Set(items.compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) })
        #expect(documented == Set(CommandLineTool.commands.map(\.name) + ["help"]))
    }

    @Test func everyOptionAndFlagIsDocumented() {
        let cli = Self.topLevelOptions.union(Self.commandOptions)
        #expect(cli.subtracting(Self.manOptions) == [], "options the CLI has and the man page does not name")
    }

    @Test func everyDocumentedOptionExists() {
        let cli = Self.topLevelOptions.union(Self.commandOptions)
        #expect(Self.manOptions.subtracting(cli) == [], "options the man page names and the CLI does not have")
    }

    @Test func everyAllowedValueIsDocumented() {
        var values = Set(BundledDemos.names)
        for spec in CommandLineTool.commands {
            for argument in spec.arguments { values.formUnion(argument.allowedValues ?? []) }
            for option in spec.options { values.formUnion(option.allowedValues ?? []) }
        }
        let documented = Self.arguments(of: "Cm", in: Self.manPage.split(separator: "\n"))
        #expect(values.subtracting(documented) == [], "values the CLI accepts and the man page does not list")
    }

    @Test func theSeedVariableAndExitStatusesAreDocumented() {
        let environment = Self.arguments(of: "Ev", in: Self.section("ENVIRONMENT").filter { $0.hasPrefix(".It ") })
        #expect(
            environment == [
                "COLORTERM", "HOME", "NO_COLOR", DashboardOptions.seedVariable, "TERM", "XDG_CONFIG_HOME",
                "XDG_RUNTIME_DIR",
            ])
        let statuses = Self.section("EXIT STATUS").filter { $0.hasPrefix(".It ") }.map { $0.dropFirst(4) }
        #expect(statuses == ["0", "1", "2", "129", "130", "141", "143", "128 + Ar n"])
        #expect(
            CommandLineTool.help.contains(
                "Exit status: 0 ok, 1 failure, 2 usage or environment error, 129/130/143 hung up/interrupted/terminated,"
                    + "\n141 standard output closed by its reader (as SIGPIPE)."))
    }
}
