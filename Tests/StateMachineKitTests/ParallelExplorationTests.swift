import StateMachineKit
import Support
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Fourteen switches; each event flips one. Some flips are refused in the ways a transition function can
/// refuse (invalid, ignore, stay) and one is an update, so every kind of cell occurs. Its widest level
/// has thousands of states, so explorations with several workers really share levels.
private struct Switches: Hashable, Sendable, CustomStringConvertible {
    var bits: UInt16

    var description: String { "switches(\(String(bits, radix: 2)))" }
}

private func flip(_ state: Switches, _ bit: Int) -> Transition<Switches, Int> {
    let flipped = Switches(bits: state.bits ^ (1 << UInt16(bit)))
    switch bit {
    case 13 where state.bits & 1 != 0: return .invalid("switch 13 is locked while switch 0 is on")
    case 12 where state.bits.nonzeroBitCount > 9: return .ignore
    case 11 where state.bits & 0b10 != 0: return .stay
    case 10: return .update(flipped)
    default: return .to(flipped)
    }
}

/// A cell on a 200 × 200 torus with the eight moves of a chess king: rings of up to 792 states a level,
/// so the levels from the 16th on (128 states, 1 024 cells) are shared among workers.
private struct KingCell: Hashable, Sendable {
    var row: Int16
    var column: Int16
}

/// The side of the king's torus.
private let kingSide: Int16 = 200

private func king(_ cell: KingCell, _ move: Int) -> Transition<KingCell, Int> {
    let side = kingSide
    let rows: [Int16] = [-1, -1, -1, 0, 0, 1, 1, 1]
    let columns: [Int16] = [-1, 0, 1, -1, 1, -1, 0, 1]
    return .to(
        KingCell(
            row: (cell.row + rows[move] + side) % side, column: (cell.column + columns[move] + side) % side))
}

/// The models the determinism tests explore, each with the state limit it is explored under.
enum WideModel: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case switches, kingTorus, switchesTruncated, kingTorusTruncated

    var testDescription: String { rawValue }
}

/// Runs `body` on a thread of its own and returns what it made. The explorations here keep every core busy for
/// a while (the calling thread works beside its helpers); run on the cooperative pool, which has one thread a core, they would
/// hold it, and other suites' tasks running meanwhile (a demo's player, whose stall bound is in wall time)
/// would wait for them.
private func offThePool<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
    await DetachedThread.value(name: "exploration", body)
}

/// The parts of a graph the tests compare whole, as plain values.
private struct GraphSummary<State: Hashable & Sendable, Event: Equatable & Sendable>: Equatable, Sendable {
    var states: [State]
    var edges: [StateGraph<State, Event>.Edge]
    var invalid: [StateGraph<State, Event>.InvalidPair]
    var isTruncated: Bool
    var deadEnds: [State]
    var edgeCount: Int

    init(_ graph: StateGraph<State, Event>) {
        states = graph.states
        edges = graph.edges
        invalid = graph.invalid
        isTruncated = graph.isTruncated
        deadEnds = graph.deadEnds
        edgeCount = graph.edgeCount
    }
}

@Suite struct ParallelExplorationTests {
    private static func switches(_ workers: ExplorationWorkers, maximumStates: Int) -> StateGraph<Switches, Int> {
        StateGraph.explore(
            from: Switches(bits: 0), events: Array(0..<14), maximumStates: maximumStates, workers: workers,
            transition: flip)
    }

    private static func kingTorus(_ workers: ExplorationWorkers, maximumStates: Int) -> StateGraph<KingCell, Int> {
        StateGraph.explore(
            from: KingCell(row: 0, column: 0), events: Array(0..<8), maximumStates: maximumStates, workers: workers,
            transition: king)
    }

    @Test(arguments: WideModel.allCases, [2, 3, 4, 8])
    func sameGraphWhateverTheNumberOfWorkers(_ model: WideModel, workers: Int) async {
        /// Explores with one worker and with `workers`, and compares the whole graphs.
        func compare<State: Hashable & Sendable, Event: Equatable & Sendable>(
            limit: Int, expectedStates: Int, truncated: Bool,
            _ explore: @escaping @Sendable (ExplorationWorkers, Int) -> StateGraph<State, Event>
        ) async {
            let (one, many) = await offThePool {
                (GraphSummary(explore(.one, limit)), GraphSummary(explore(.exactly(workers), limit)))
            }
            #expect(one.states.count == expectedStates && one.isTruncated == truncated)
            #expect(many == one)
        }
        switch model {
        case .switches:
            await compare(limit: 100_000, expectedStates: 1 << 14, truncated: false, Self.switches)
        case .switchesTruncated:
            // The limit falls in the middle of a level that several workers share.
            await compare(limit: 5_000, expectedStates: 5_000, truncated: true, Self.switches)
        case .kingTorus:
            await compare(limit: 100_000, expectedStates: 200 * 200, truncated: false, Self.kingTorus)
        case .kingTorusTruncated:
            // The limit falls in the 71st ring, which is explored shared.
            await compare(limit: 20_000, expectedStates: 20_000, truncated: true, Self.kingTorus)
        }
    }

    @Test(arguments: WideModel.allCases, [2, 3, 4, 8])
    func sameGraphWhenOnlyTheLookUpsAreShared(_ model: WideModel, workers: Int) async {
        let limit: Int
        switch model {
        case .switches, .kingTorus: limit = 100_000
        case .switchesTruncated: limit = 5_000
        case .kingTorusTruncated: limit = 20_000
        }
        switch model {
        case .switches, .switchesTruncated:
            let (one, shared) = await offThePool {
                (
                    GraphSummary(Self.switches(.one, maximumStates: limit)),
                    GraphSummary(
                        StateGraph.explore(
                            from: Switches(bits: 0), events: Array(0..<14), maximumStates: limit,
                            lookUpWorkers: .exactly(workers), transition: flip))
                )
            }
            #expect(shared == one)
        case .kingTorus, .kingTorusTruncated:
            let (one, shared) = await offThePool {
                (
                    GraphSummary(Self.kingTorus(.one, maximumStates: limit)),
                    GraphSummary(
                        StateGraph.explore(
                            from: KingCell(row: 0, column: 0), events: Array(0..<8), maximumStates: limit,
                            lookUpWorkers: .exactly(workers), transition: king))
                )
            }
            #expect(shared == one)
        }
    }

    @Test func theDefaultEntryGivesTheGraphOneWorkerFinds() async {
        let (sequential, oneWorker) = await offThePool {
            (
                GraphSummary(
                    StateGraph.explore(
                        from: Switches(bits: 0), events: Array(0..<14), maximumStates: 100_000, transition: flip)),
                GraphSummary(Self.switches(.one, maximumStates: 100_000))
            )
        }
        #expect(sequential == oneWorker)
    }

    @Test func theDefaultEntryCallsTheTransitionOnTheCallingThreadAlone() async {
        // A closure that is not `@Sendable` (it counts into a captured variable) keeps to the caller's thread
        // even when the states are sendable and the search is wide enough to share its look-ups.
        let (calls, otherThreads, states) = await offThePool {
            let caller = pthread_self()
            var calls = 0
            var otherThreads = 0
            let graph = StateGraph.explore(from: Switches(bits: 0), events: Array(0..<14), maximumStates: 100_000) {
                state, bit in
                calls += 1
                if pthread_equal(pthread_self(), caller) == 0 { otherThreads += 1 }
                return flip(state, bit)
            }
            return (calls, otherThreads, graph.states.count)
        }
        #expect(calls == states * 14 && otherThreads == 0)
    }

    @Test(arguments: [1, 2, 4, 8])
    func shortestPathsAreTheSameWhateverTheNumberOfWorkers(workers: Int) async {
        let (graph, torus, oneTorus) = await offThePool {
            (
                Self.switches(.exactly(workers), maximumStates: 100_000),
                Self.kingTorus(.exactly(workers), maximumStates: 100_000), Self.kingTorus(.one, maximumStates: 100_000)
            )
        }
        // Seven switches on, 0 off: several shortest paths exist, and the first one found is the answer.
        let path = graph.shortestPath(to: { $0.bits.nonzeroBitCount == 7 && $0.bits & 1 == 0 })
        #expect(path == [1, 2, 3, 4, 5, 6, 7])
        let target = KingCell(row: 3, column: kingSide - 2)
        let corner = torus.shortestPath(to: { $0 == target })
        #expect(corner == oneTorus.shortestPath(to: { $0 == target }))
        let reached = corner?.reduce(KingCell(row: 0, column: 0)) { cell, move in
            guard case .to(let next, _) = king(cell, move) else { return cell }
            return next
        }
        #expect(corner?.count == 3 && reached == target)
    }

    @Test(arguments: [1, 2, 4, 8])
    func positionsAndUnreachableStatesAreAnsweredWhateverTheNumberOfWorkers(workers: Int) async {
        let graph = await offThePool { Self.kingTorus(.exactly(workers), maximumStates: 20_000) }
        let positions = graph.states.indices.filter { graph.position(of: graph.states[$0]) != $0 }
        #expect(positions == [])
        let far = KingCell(row: 100, column: 100)
        #expect(graph.unreachable(of: [far, graph.states[0], far]) == [far])
    }

    @Test func allCoresIsAtLeastOneWorker() {
        #expect(ExplorationWorkers.allCores.count >= 1)
        #expect(ExplorationWorkers.exactly(3).count == 3)
        #expect(ExplorationWorkers.one == .exactly(1))
        #expect(ExplorationWorkers.exactly(3).description == "3 workers")
    }

    @Test func aMachineExploresToTheGraphOneWorkerFinds() async {
        let (machineGraph, oneWorker) = await offThePool {
            let machine = StateMachine(initial: Switches(bits: 0), label: "switches", transition: flip)
            return (
                GraphSummary(machine.explore(from: Switches(bits: 0), events: Array(0..<14), maximumStates: 100_000)),
                GraphSummary(Self.switches(.one, maximumStates: 100_000))
            )
        }
        #expect(machineGraph == oneWorker)
    }
}
