import SeedModels
import StateMachineDiagrams
import StateMachineKit

/// `statetui graph transfer|upload|load [--full] [--format mermaid|dot|table|text] [--charset unicode|ascii]`:
/// explores the model with its sample events and prints the graph.
package enum GraphCommand {
    /// The declaration behind parsing and help; the help lists each model's sample events.
    package static let spec = CommandSpec(
        name: "graph",
        abstract: "Explore a model with its sample events and print the reachable graph.",
        arguments: [
            .init(name: "model", help: "The model to explore.", allowedValues: ScreenModel.allCases.map(\.rawValue))
        ],
        options: [
            .init(
                name: "format", valueName: "format", help: "How to print the graph.",
                allowedValues: GraphFormat.allCases.map(\.rawValue), defaultValue: GraphFormat.mermaid.rawValue),
            .init(
                name: "charset", valueName: "charset",
                help: "Characters of the text diagram (default: unicode under a UTF-8 locale, else ascii).",
                allowedValues: DiagramCharset.allCases.map(\.rawValue), defaultValue: nil),
        ],
        flags: [
            .init(name: "full", help: "Text format: one box per explored state instead of one per case.")
        ],
        discussion: """
            Every state reachable from the initial one is found by sending each sample event in every state.
            Edges are .to and .update transitions (update edges are marked); stay and ignore make no edge; the
            table marks '=' stay, '·' ignore and '!' invalid. The transfer model's state includes its request
            counter; ids newer than the samples' request 1 are folded onto request 2 so the graph is finite.

            The text format draws boxes and arrows, collapsed by case (running(request: 1, percent: 20) is drawn
            as running, arrows are labelled by event case); --full draws every explored state. The initial state
            has a double border. Mermaid, dot and table always show the full graph.

            SAMPLE EVENTS:
            \(ScreenModel.allCases.map { "  \($0.rawValue): " + $0.sampleInputs.joined(separator: ", ") }
                .joined(separator: "\n"))
            """)

    /// Runs the parsed command; `environment` decides the text diagram's charset when none is given.
    static func run(_ command: ParsedCommand, io: CommandIO, environment: [String: String] = [:]) -> Int32 {
        guard let model = command.arguments["model"].flatMap(ScreenModel.init(rawValue:)),
            let format = command.options["format"].flatMap(GraphFormat.init(rawValue:))
        else {
            preconditionFailure("Internal inconsistency: graph's spec admitted \(command)")
        }
        let charset = command.options["charset"].flatMap(DiagramCharset.init(rawValue:)) ?? charset(for: environment)
        io.writeOutput(model.graph(format, full: command.flags.contains("full"), charset: charset))
        return 0
    }

    /// Unicode when the locale's character set is UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`, as
    /// setlocale(3) reads them), ASCII otherwise (including the C locale when none is set).
    package static func charset(for environment: [String: String]) -> DiagramCharset {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let normalized = locale.lowercased().replacing("-", with: "")
        return normalized.contains("utf8") ? .unicode : .ascii
    }
}
