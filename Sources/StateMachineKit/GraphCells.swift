#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The cells of a graph (``GraphCell``), in memory of their own: written by the search that explores the
/// graph, then only read.
///
/// While the search runs they grow with `realloc`, which moves a large block's pages rather than copying
/// them where the system can (Linux's `mremap`), and they are never filled with zeros first, since the
/// batch that adds cells writes every one of them. At the end they are trimmed to their count in place, so
/// the graph is built without a second copy of its largest part beside the first.
@usableFromInline
final class GraphCells: @unchecked Sendable {
    // Unchecked because the memory is raw: it is written only by the search that makes it, which hands it to
    // its graph once done; from then on it is only read.

    @usableFromInline private(set) var base: UnsafeMutablePointer<Int32>
    @usableFromInline private(set) var count = 0
    @usableFromInline private(set) var capacity: Int

    @inlinable
    init() {
        capacity = 1024
        base = Self.resized(nil, to: capacity)
    }

    deinit { free(base) }

    /// `memory` reallocated to hold `capacity` cells (at least one). Stops the process when the system has no
    /// memory left, as Swift's own arrays do.
    @usableFromInline
    static func resized(_ memory: UnsafeMutablePointer<Int32>?, to capacity: Int) -> UnsafeMutablePointer<Int32> {
        guard let raw = realloc(memory, Swift.max(capacity, 1) &* MemoryLayout<Int32>.stride) else {
            fatalError("StateGraph.explore: no memory for \(capacity) cells")
        }
        return raw.bindMemory(to: Int32.self, capacity: Swift.max(capacity, 1))
    }

    /// Adds `additional` cells, for the caller to write before any is read, and returns the place of the
    /// first.
    @inlinable
    func extend(by additional: Int) -> Int {
        let first = count
        if count &+ additional > capacity {
            capacity = Swift.max(capacity &* 2, count &+ additional)
            base = Self.resized(base, to: capacity)
        }
        count &+= additional
        return first
    }

    /// Gives back the capacity beyond the count.
    @inlinable
    func trim() {
        guard capacity > count else { return }
        capacity = count
        base = Self.resized(base, to: capacity)
    }

    @inlinable
    subscript(cell: Int) -> Int32 {
        precondition(cell >= 0 && cell < count, "GraphCells: cell \(cell) out of 0..<\(count)")
        return base[cell]
    }

    @inlinable
    var indices: Range<Int> { 0..<count }
}
