import Testing

@testable import FileTransfer

/// The pool of chunk buffers a tree of small files reuses: what is given back is handed out again, never more
/// than the pool's bound waits in it, and every buffer is page-aligned whether it came from the pool or not.
struct ChunkBuffersTests {
    /// Where a buffer starts, and how long it is.
    struct Shape: Hashable {
        let address: UInt
        let count: Int

        init(_ buffer: UnsafeMutableRawBufferPointer) {
            address = UInt(bitPattern: buffer.baseAddress)
            count = buffer.count
        }
    }

    @Test("a buffer given back is the next one taken, and every buffer is page-aligned")
    func givenBackIsTakenAgain() {
        let pool = ChunkBuffers(size: 8192, keptMaximum: 2)
        let first = pool.take(8192)
        let before = Shape(first)
        pool.give(first)
        let again = pool.take(8192)
        let seen = Shape(again)
        #expect(seen == before)
        #expect(seen.aligned && pool.keptCount == 0)
        pool.give(again)
    }

    @Test("at most keptMaximum buffers wait; the rest, and buffers of another size, are freed")
    func theBoundHolds() {
        let pool = ChunkBuffers(size: 4096, keptMaximum: 2)
        let taken = (0..<3).map { _ in pool.take(4096) }
        let other = pool.take(4096 * 3)
        for buffer in taken { pool.give(buffer) }
        pool.give(other)
        #expect(pool.keptCount == 2)
        let reused = Set((0..<2).map { _ in Shape(pool.take(4096)) })
        #expect(reused.isSubset(of: Set(taken.map(Shape.init))) && reused.count == 2)
        #expect(Shape(other).aligned && other.count == 4096 * 3)
        let fresh = pool.take(4096)
        #expect(pool.keptCount == 0 && fresh.count == 4096 && Shape(fresh).aligned)
        fresh.deallocate()
        for shape in reused {
            UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(bitPattern: shape.address), count: shape.count)
                .deallocate()
        }
    }
}

extension ChunkBuffersTests.Shape {
    /// Whether the buffer starts on a page.
    var aligned: Bool { address % UInt(ChunkBuffers.alignment) == 0 }
}
