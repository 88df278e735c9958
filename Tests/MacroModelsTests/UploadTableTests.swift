import Commands
import MacroModels
import SeedModels
import StateMachineKit
import Testing

/// The `@StateMachine` rewrite of the upload model behaves exactly like the hand-written function.
@Suite struct UploadTableTests {
    /// The sample events plus progress that stays, goes back, overshoots or is not a number, another upload's
    /// reports, failures of every category and retries that do not name a new upload.
    static let events: [UploadEvent] =
        UploadState.sampleEvents + [
            .progress(upload: 1, fraction: 0), .progress(upload: 1, fraction: 0.25),
            .progress(upload: 1, fraction: 1.5),
            .progress(upload: 1, fraction: -0.5), .progress(upload: 1, fraction: .infinity),
            .progress(upload: 1, fraction: .nan), .progress(upload: 2, fraction: 0.75),
            .fail(upload: 1, category: .server, message: "disk full"),
            .fail(upload: 2, category: .rejected, message: "too large"), .retry(upload: 1), .retry(upload: 3),
            .start(upload: 3),
        ]

    static var handWritten: StateGraph<UploadState, UploadEvent> {
        StateGraph.explore(from: UploadState.idle, events: events, transition: UploadState.transition)
    }

    static var generated: StateGraph<UploadState, UploadEvent> {
        StateGraph.explore(from: UploadTable.table.initial, events: events, transition: UploadTable.transition)
    }

    @Test func everyPairOfTheExploredGraphGetsTheSameDecision() {
        let states = Self.handWritten.states
        #expect(states.count > 5)
        var differences: [String] = []
        for state in states {
            for event in Self.events {
                let expected = UploadState.transition(state, event)
                let actual = UploadTable.transition(state, event)
                // NaN never equals itself, so the two decisions are compared as text.
                if String(describing: actual) != String(describing: expected) {
                    differences.append("\(state) + \(event): \(actual) instead of \(expected)")
                }
            }
        }
        #expect(differences == [])
    }

    @Test func theGeneratedSwitchAgreesWithTheInterpretedTable() {
        var differences: [String] = []
        for state in Self.handWritten.states {
            for event in Self.events {
                let generated = UploadTable.transition(state, event)
                let interpreted = UploadTable.table.interpret(
                    state, event, stateCase: UploadTable.stateCase, eventCase: UploadTable.eventCase)
                if String(describing: generated) != String(describing: interpreted) {
                    differences.append("\(state) + \(event): \(generated) instead of \(interpreted)")
                }
            }
        }
        #expect(differences == [])
    }

    @Test func theGraphsAreTheSame() {
        let handWritten = Self.handWritten
        let generated = Self.generated
        #expect(generated.states == handWritten.states)
        #expect(generated.isTruncated == handWritten.isTruncated)
        #expect(generated.edges == handWritten.edges)
        // An invalid pair may hold `progress(nan)`, which never equals itself, so pairs compare as text.
        #expect(
            generated.invalid.map { "\($0.state) \($0.event) \($0.reason)" }
                == handWritten.invalid.map { "\($0.state) \($0.event) \($0.reason)" })
        #expect(generated.mermaid == handWritten.mermaid)
        #expect(generated.dot == handWritten.dot)
        #expect(generated.transitionTable == handWritten.transitionTable)
    }

    @Test func theSampleGraphIsTheOneStatetuiGraphPrints() {
        let generated = StateGraph.explore(
            from: UploadTable.table.initial, events: UploadState.sampleEvents, transition: UploadTable.transition)
        #expect(generated.mermaid == UploadState.exploreSamples().mermaid)
    }

    /// Event files as `statetui replay upload` reads them: comments, blank lines, every event form, and
    /// lines that are invalid, ignored, stay or go back.
    static let eventFiles: [String] = [
        "start(upload: 1)\nprogress(upload: 1, fraction: 0.5)\npause\nresume\nprogress(upload: 1, fraction: 1.0)\n"
            + "complete(upload: 1)\n",
        "# a failed upload, retried\nstart(upload: 1)\nprogress(upload: 1, fraction: 0.25)\n"
            + "fail(upload: 1, category: network, message: \"offline\")\n\nretry(upload: 2)\n"
            + "progress(upload: 2, fraction: 0.5)\ncancel\n",
        "pause\nresume\nretry(upload: 1)\ncancel\nstart(upload: 1)\nstart(upload: 2)\n"
            + "progress(upload: 1, fraction: 0.5)\nprogress(upload: 1, fraction: 0.25)\nprogress(upload: 1, fraction: 1.5)\n",
        "start(upload: 1)\npause\nprogress(upload: 1, fraction: 0.75)\ncomplete(upload: 1)\nstart(upload: 2)\n"
            + "progress(upload: 2, fraction: 0.0)\nfail(upload: 2, category: rejected, message: \"disk \\\"full\\\"\")\n"
            + "retry(upload: 3)\ncancel\nstart(upload: 3)\n",
        "complete(upload: 1)\nfail(upload: 1, category: server, message: \"late\")\nprogress(upload: 1, fraction: 0.5)\n"
            + "start(upload: 1)\ncancel\nstart(upload: 2)\ncomplete(upload: 1)\nprogress(upload: 2, fraction: 0.5)\n"
            + "not an event\nstart\n",
    ]

    @Test(arguments: eventFiles)
    func replayPrintsTheSameThroughBothMachines(file: String) {
        let handWritten = Self.replay(file, through: ScreenModel.upload.makeReplayer())
        let engine = StateMachine(initial: UploadTable.table.initial, label: "replay.upload-table") {
            UploadTable.transition($0, $1)
        }
        let generated = Self.replay(
            file,
            through: Replayer { text throws(CanonicalTextError) in
                let outcome = engine.send(try UploadEvent(parsing: text))
                return Replayer.Step(verdict: outcome.verdict, state: engine.state.description)
            })
        #expect(generated.output.isEmpty == false)
        #expect(generated == handWritten)
    }

    /// Runs `statetui replay upload`'s loop over `file` through `replayer`.
    static func replay(_ file: String, through replayer: Replayer) -> Printed {
        var lines = file.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        if lines.last == "" { lines.removeLast() }
        var printed = Printed()
        let io = CommandIO(
            readInputLine: { nil }, readFile: { _ in .failure(CommandIO.ReadError("unused")) },
            writeOutput: { printed.output += $0 }, writeError: { printed.error += $0 })
        printed.status = ReplayCommand.run(model: .upload, replayer: replayer, lines: { lines.popFirst() }, io: io)
        return printed
    }

    /// What a replay printed and how it ended.
    struct Printed: Equatable {
        var output = ""
        var error = ""
        var status: Int32 = -1
    }
}
