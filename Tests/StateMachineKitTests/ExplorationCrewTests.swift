import Synchronization
import Testing

@testable import StateMachineKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tasks that count how many times each of them ran, in counters of their own.
private struct CountingTasks: ConcurrentTasks, @unchecked Sendable {
    // Unchecked because the counters are raw memory, only touched through `Atomic`'s operations.
    let counts: UnsafeMutablePointer<Atomic<Int>>

    func run(_ task: Int) { counts[task].wrappingAdd(1, ordering: .relaxed) }
}

/// The helper threads an exploration shares its batches with, driven directly: every task of every job runs
/// exactly once, whether the helpers are watching for the next job or asleep, and `finish` returns once every
/// helper has ended.
@Suite struct ExplorationCrewTests {
    /// How many times each of `count` tasks ran in one `run` of `crew`.
    static func runCounts(_ crew: ExplorationCrew, count: Int) -> [Int] {
        let counts = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: count)
        for task in 0..<count { (counts + task).initialize(to: Atomic(0)) }
        defer {
            counts.deinitialize(count: count)
            counts.deallocate()
        }
        crew.run(CountingTasks(counts: counts), count: count)
        return (0..<count).map { counts[$0].load(ordering: .relaxed) }
    }

    @Test(arguments: [1, 3])
    func everyTaskOfEveryJobRunsOnce(helpers: Int) {
        let crew = ExplorationCrew(helpers: helpers)
        var counts: [[Int]] = []
        var expected: [[Int]] = []
        for job in 0..<200 {
            let count = [0, 1, 7, 64, 1000][job % 5]
            counts.append(Self.runCounts(crew, count: count))
            expected.append(Array(repeating: 1, count: count))
        }
        crew.finish()
        #expect(counts == expected)
    }

    /// Jobs far enough apart that the helpers stop watching and sleep (10 ms is a hundred times the time they
    /// watch): the next job wakes them, or the calling thread does it alone; either way nothing is lost.
    @Test func jobsAfterTheHelpersSleptStillRunEveryTaskOnce() {
        let crew = ExplorationCrew(helpers: 2)
        var counts: [[Int]] = []
        for _ in 0..<5 {
            usleep(10_000)
            counts.append(Self.runCounts(crew, count: 256))
        }
        crew.finish()
        #expect(counts == Array(repeating: Array(repeating: 1, count: 256), count: 5))
    }

    /// A crew finished while its helpers sleep, and one finished at once, both end.
    @Test func finishEndsSleepingAndWatchingHelpers() {
        let sleeping = ExplorationCrew(helpers: 2)
        usleep(10_000)
        sleeping.finish()
        let watching = ExplorationCrew(helpers: 2)
        let counts = Self.runCounts(watching, count: 16)
        watching.finish()
        #expect(counts == Array(repeating: 1, count: 16))
    }
}

/// The cells of a graph in memory of their own: grown without losing what was written, trimmed to their count.
@Suite struct GraphCellsTests {
    @Test func growingKeepsTheCellsWrittenAndTrimmingKeepsThemAll() {
        let cells = GraphCells()
        var written: [Int32] = []
        for batch in [0, 1, 1023, 5000, 70_000] {
            let first = cells.extend(by: batch)
            for cell in 0..<batch {
                let value = Int32(truncatingIfNeeded: (first + cell) &* 7)
                (cells.base + first + cell).initialize(to: value)
                written.append(value)
            }
        }
        #expect(cells.capacity >= cells.count)
        cells.trim()
        #expect(cells.capacity == cells.count)
        #expect(cells.indices.map { cells[$0] } == written)
    }
}
