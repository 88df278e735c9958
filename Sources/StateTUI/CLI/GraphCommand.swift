import ScreenStates

/// `statetui graph transfer|upload|load [--format mermaid|dot|table]`: explores the model with
/// its sample events and prints the graph.
public enum GraphCommand {
    /// The declaration behind parsing and help; the help lists each model's sample events.
    public static let spec = CommandSpec(
        name: "graph",
        abstract: "Explore a model with its sample events and print the reachable graph.",
        arguments: [
            .init("model", help: "The model to explore.", allowedValues: ScreenModel.allCases.map(\.rawValue))
        ],
        options: [
            .init(
                "format", valueName: "format", help: "How to print the graph.",
                allowedValues: GraphFormat.allCases.map(\.rawValue), defaultValue: GraphFormat.mermaid.rawValue)
        ],
        discussion: """
            Every state reachable from the initial one is found by sending each sample event in every state.
            Edges are .to and .update transitions (update edges are marked); stay and ignore make no edge; the
            table marks '=' stay, '·' ignore and '!' invalid. The transfer model's state includes its request
            counter; ids newer than the samples' request 1 are folded onto request 2 so the graph is finite.

            SAMPLE EVENTS:
            \(ScreenModel.allCases.map { "  \($0.rawValue): " + $0.sampleInputs.joined(separator: ", ") }
                .joined(separator: "\n"))
            """)

    /// Runs the parsed command.
    static func run(_ command: ParsedCommand, io: CommandIO) -> Int32 {
        guard let model = command.arguments["model"].flatMap(ScreenModel.init(rawValue:)),
            let format = command.options["format"].flatMap(GraphFormat.init(rawValue:))
        else {
            preconditionFailure("Internal inconsistency: graph's spec admitted \(command)")
        }
        io.writeOutput(model.graph(format))
        return 0
    }
}
