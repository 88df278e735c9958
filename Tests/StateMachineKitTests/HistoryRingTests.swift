import Testing

@testable import StateMachineKit

/// A machine's history ring keeps its newest records, oldest first, and holds memory for the records it has
/// rather than for its whole limit.
@Suite struct HistoryRingTests {
    /// Room for four at first, doubled as elements come, never more than the capacity: 10,000 machines made
    /// with the default limit of 64 and two records each held room for 640,000 records before (issue 23, item
    /// 6: a copy dashboard that started 20,000 rows peaked at 200 MB), and for 40,000 now.
    @Test(arguments: [
        (capacity: 64, appended: 0, room: 4, kept: [Int]()), (64, 2, 4, [0, 1]), (64, 5, 8, Array(0..<5)),
        (64, 33, 64, Array(0..<33)), (64, 100, 64, Array(36..<100)), (3, 7, 3, [4, 5, 6]), (1, 3, 1, [2]),
        (0, 5, 0, []), (6, 5, 6, Array(0..<5)),
    ])
    func aRingGrowsAsElementsComeUpToItsCapacity(capacity: Int, appended: Int, room: Int, kept: [Int]) {
        var ring = HistoryRing<Int>(capacity: capacity)
        for element in 0..<appended { ring.append(element) }
        #expect([ring.room, ring.count] == [room, kept.count])
        #expect(ring.elements == kept)
    }

    /// Elements that own memory are moved as the ring grows, and released as they are overwritten and when the
    /// ring goes.
    @Test func elementsAreMovedReleasedAndOverwrittenInPlace() {
        final class Token {}
        weak var first: Token?
        var ring = HistoryRing<(Int, Token)>(capacity: 8)
        do {
            let token = Token()
            first = token
            ring.append((0, token))
        }
        for index in 1..<8 { ring.append((index, Token())) }
        #expect(first != nil)
        ring.overwriteOldest { $0 = (8, Token()) }
        #expect(first == nil)
        #expect(ring.elements.map(\.0) == Array(1...8))
        weak let last = ring.elements.last?.1
        ring = HistoryRing(capacity: 8)
        #expect(last == nil)
    }
}
