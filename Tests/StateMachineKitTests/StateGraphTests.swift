import StateMachineKit
import Testing

/// A vault with a reachable dead end (`jammed`), a declared state no event reaches (`welded`),
/// invalid pairs, a re-entering self-edge and an update.
private enum Vault: Hashable, CaseIterable {
    case closed, opened, locked, jammed, welded
}

private enum VaultEvent: Hashable {
    case open, close, lock, unlock, kick
}

private let vaultEvents: [VaultEvent] = [.open, .close, .lock, .unlock, .kick]

private func vault(_ state: Vault, _ event: VaultEvent) -> Transition<Vault, VaultEvent> {
    switch (state, event) {
    case (.closed, .open): .to(.opened)
    case (.closed, .close): .stay
    case (.closed, .lock): .to(.locked)
    case (.closed, .unlock): .ignore
    case (.closed, .kick): .to(.closed)
    case (.opened, .open): .stay
    case (.opened, .close): .to(.closed)
    case (.opened, .lock): .invalid("cannot lock an open vault")
    case (.opened, .unlock): .ignore
    case (.opened, .kick): .update(.opened)
    case (.locked, .open): .invalid("the vault is locked")
    case (.locked, .close), (.locked, .lock): .stay
    case (.locked, .unlock): .to(.closed)
    case (.locked, .kick): .to(.jammed)
    case (.jammed, .kick): .to(.jammed)
    case (.jammed, _): .ignore
    case (.welded, _): .ignore
    }
}

/// A state whose description is chosen by the test, to exercise escaping.
private struct Label: Hashable, CustomStringConvertible {
    var description: String
}

@Suite struct StateGraphTests {
    private let graph = StateGraph.explore(from: Vault.closed, events: vaultEvents, transition: vault)

    @Test func statesAreInBreadthFirstDiscoveryOrder() {
        #expect(graph.states == [.closed, .opened, .locked, .jammed])
        #expect(graph.isTruncated == false)
    }

    @Test func toAndUpdateMakeEdgesStayIgnoreAndInvalidDoNot() {
        typealias Edge = StateGraph<Vault, VaultEvent>.Edge
        let expected: [Edge] = [
            Edge(from: .closed, event: .open, to: .opened, kind: .to),
            Edge(from: .closed, event: .lock, to: .locked, kind: .to),
            Edge(from: .closed, event: .kick, to: .closed, kind: .to),
            Edge(from: .opened, event: .close, to: .closed, kind: .to),
            Edge(from: .opened, event: .kick, to: .opened, kind: .update),
            Edge(from: .locked, event: .unlock, to: .closed, kind: .to),
            Edge(from: .locked, event: .kick, to: .jammed, kind: .to),
            Edge(from: .jammed, event: .kick, to: .jammed, kind: .to),
        ]
        #expect(graph.edges == expected)
        #expect(graph.edgeCount == expected.count)
    }

    @Test func invalidAnswersBecomeInvalidPairsWithTheirReasons() {
        typealias Pair = StateGraph<Vault, VaultEvent>.InvalidPair
        #expect(
            graph.invalid == [
                Pair(state: .opened, event: .lock, reason: "cannot lock an open vault"),
                Pair(state: .locked, event: .open, reason: "the vault is locked"),
            ])
    }

    @Test func declaredStatesNoEventReachesAreUnreachable() {
        #expect(graph.unreachable(of: Vault.allCases) == [.welded])
        #expect(graph.unreachable(of: [Vault.welded, .closed, .welded]) == [.welded])
    }

    @Test func statesThatOnlyLoopOnThemselvesAreDeadEnds() {
        #expect(graph.deadEnds == [.jammed])
    }

    @Test func shortestPathsFollowTheBreadthFirstSearch() {
        #expect(graph.shortestPath(to: { $0 == .jammed }) == [.lock, .kick])
        #expect(graph.shortestPath(to: { $0 == .opened }) == [.open])
        #expect(graph.shortestPath(to: { $0 == .closed }) == [])
        #expect(graph.shortestPath(to: { $0 == .welded }) == nil)
    }

    @Test func shortestPathIsShortestOnALongerChain() {
        // 0 …→ 9 by +1, or jump +3: the shortest way to 9 is three jumps.
        let chain = StateGraph.explore(from: 0, events: ["step", "jump"]) { (state: Int, event: String) in
            let next = state + (event == "jump" ? 3 : 1)
            return next <= 9 ? .to(next) : .ignore
        }
        #expect(chain.shortestPath(to: { $0 == 9 }) == ["jump", "jump", "jump"])
        // 5 is found from 2 (reached by two steps) before any other parent is expanded.
        #expect(chain.shortestPath(to: { $0 == 5 }) == ["step", "step", "jump"])
    }

    @Test func mermaidIsAStateDiagramWithTheInitialStateMarked() {
        #expect(
            graph.mermaid == """
                stateDiagram-v2
                    [*] --> s0
                    s0 : closed
                    s1 : opened
                    s2 : locked
                    s3 : jammed
                    s0 --> s1 : open
                    s0 --> s2 : lock
                    s0 --> s0 : kick
                    s1 --> s0 : close
                    s1 --> s1 : kick (update)
                    s2 --> s0 : unlock
                    s2 --> s3 : kick
                    s3 --> s3 : kick

                """)
    }

    @Test func dotIsAGraphvizDigraphWithDashedUpdates() {
        #expect(
            graph.dot == """
                digraph StateGraph {
                    rankdir=LR;
                    node [shape=box, style=rounded];
                    start [shape=point];
                    s0 [label="closed"];
                    s1 [label="opened"];
                    s2 [label="locked"];
                    s3 [label="jammed"];
                    start -> s0;
                    s0 -> s1 [label="open"];
                    s0 -> s2 [label="lock"];
                    s0 -> s0 [label="kick"];
                    s1 -> s0 [label="close"];
                    s1 -> s1 [label="kick", style=dashed];
                    s2 -> s0 [label="unlock"];
                    s2 -> s3 [label="kick"];
                    s3 -> s3 [label="kick"];
                }

                """)
    }

    @Test func transitionTableMarksStayIgnoreAndInvalid() {
        #expect(
            graph.transitionTable == """
                | state  | open   | close  | lock   | unlock | kick   |
                | ------ | ------ | ------ | ------ | ------ | ------ |
                | closed | opened | =      | locked | ·      | closed |
                | opened | =      | closed | !      | ·      | opened |
                | locked | !      | =      | =      | closed | jammed |
                | jammed | ·      | ·      | ·      | ·      | jammed |

                """)
    }

    @Test func renderingsAreTheSameOnEveryExploration() {
        let again = StateGraph.explore(from: Vault.closed, events: vaultEvents, transition: vault)
        #expect(
            [again.mermaid, again.dot, again.transitionTable] == [graph.mermaid, graph.dot, graph.transitionTable])
    }

    @Test func anInfiniteMachineIsTruncatedAtTheStateLimit() {
        let counter = StateGraph.explore(from: 0, events: ["up"], maximumStates: 5) { (state: Int, _: String) in
            .to(state + 1)
        }
        #expect(counter.states == [0, 1, 2, 3, 4])
        #expect(counter.isTruncated)
        #expect(counter.edges.map { [$0.from, $0.to] } == [[0, 1], [1, 2], [2, 3], [3, 4]])
        // The last state leads beyond the limit, which is not a dead end.
        #expect(counter.deadEnds == [])
        #expect(counter.unreachable(of: [3, 5]) == [5])
        #expect(
            counter.mermaid == """
                stateDiagram-v2
                    [*] --> s0
                    s0 : 0
                    s1 : 1
                    s2 : 2
                    s3 : 3
                    s4 : 4
                    s0 --> s1 : up
                    s1 --> s2 : up
                    s2 --> s3 : up
                    s3 --> s4 : up
                    %% truncated at 5 states

                """)
        #expect(counter.transitionTable.hasSuffix("| 4     | ?  |\n\ntruncated at 5 states\n"))
    }

    @Test func aFiniteMachineAtExactlyTheLimitIsNotTruncated() {
        let ring = StateGraph.explore(from: 0, events: ["next"], maximumStates: 3) { (state: Int, _: String) in
            .to((state + 1) % 3)
        }
        #expect(ring.states == [0, 1, 2])
        #expect(ring.isTruncated == false)
    }

    @Test func nastyDescriptionsAreEscapedForEveryFormat() {
        let nasty = Label(description: "say \"hi\"; #1 <b>&</b> a|b \\ x\nend")
        let plain = Label(description: "running(request: 1, percent: 20)")
        let nastyGraph = StateGraph.explore(from: plain, events: [nasty]) { state, _ in
            state == plain ? .to(nasty) : .ignore
        }
        #expect(
            nastyGraph.mermaid == """
                stateDiagram-v2
                    [*] --> s0
                    s0 : running(request: 1, percent: 20)
                    s1 : say #quot;hi#quot;#59; #35;1 #lt;b#gt;#amp;#lt;/b#gt; a|b \\ x#10;end
                    s0 --> s1 : say #quot;hi#quot;#59; #35;1 #lt;b#gt;#amp;#lt;/b#gt; a|b \\ x#10;end

                """)
        #expect(nastyGraph.dot.contains(#"    s1 [label="say \"hi\"; #1 <b>&</b> a|b \\ x\\nend"];"#))
        #expect(nastyGraph.dot.contains(#"    s0 -> s1 [label="say \"hi\"; #1 <b>&</b> a|b \\ x\\nend"];"#))
        #expect(nastyGraph.transitionTable.contains(#"| say "hi"; #1 <b>&</b> a\|b \ x\nend |"#))
    }

    @Test(arguments: ["", "a\u{7}b", "tab\there", "emoji 🚦 ok", "-->", "[*]", "%% comment"])
    func everyMermaidLabelStaysOnOneLineWithoutTerminators(text: String) {
        let labelled = StateGraph.explore(from: Label(description: "start"), events: [text]) { state, event in
            state.description == "start" ? .to(Label(description: event)) : .ignore
        }
        let lines = labelled.mermaid.split(separator: "\n", omittingEmptySubsequences: false)
        // header, [*], two states, one edge, and the final empty line after the newline
        #expect(lines.count == 6)
        for line in lines.dropFirst(2).dropLast() {
            let label = withoutEntityCodes(String(line.split(separator: ":", maxSplits: 1).dropFirst().first ?? ""))
            #expect(!label.unicodeScalars.contains { "#;\"<>&".unicodeScalars.contains($0) || $0.value < 0x20 })
        }
    }
}

/// The text with every Mermaid entity code (`#59;`, `#quot;` …) removed.
private func withoutEntityCodes(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let hash = rest.firstIndex(of: "#") {
        result += rest[..<hash]
        let afterHash = rest[rest.index(after: hash)...]
        guard let semicolon = afterHash.firstIndex(of: ";"),
            !afterHash[..<semicolon].isEmpty,
            afterHash[..<semicolon].allSatisfy({ $0.isLetter || $0.isNumber })
        else {
            result += "#"
            rest = afterHash
            continue
        }
        rest = afterHash[afterHash.index(after: semicolon)...]
    }
    return result + rest
}
