import Support

/// Page-aligned buffers of one size, kept for the next copy instead of being freed: a tree of small files
/// copies one file of one chunk after another, and allocating and freeing 64 KiB for each made the allocator
/// merge its free lists on every file.
///
/// Bounded: at most ``keptMaximum`` buffers wait here; a buffer of another size, or one given back while the
/// pool is full, is freed at once.
package final class ChunkBuffers: Sendable {
    /// The pool the copies share: buffers of the smallest chunk a copy reads in, at most 64 of them (4 MiB).
    package static let shared = ChunkBuffers(size: 64 << 10, keptMaximum: 64)

    /// The alignment of every buffer: a page, so that a direct write may use it.
    static let alignment = 4096

    /// The size of the buffers kept.
    let size: Int
    /// The most buffers kept.
    let keptMaximum: Int

    /// A buffer waiting in the pool. `@unchecked Sendable`: a kept buffer is no one's until ``take(_:)`` hands
    /// it to a single owner, who alone uses it until ``give(_:)``.
    private struct Kept: @unchecked Sendable {
        let buffer: UnsafeMutableRawBufferPointer
    }

    private let kept = Locked<[Kept]>([])

    /// A pool of buffers of `size` bytes keeping at most `keptMaximum` of them.
    init(size: Int, keptMaximum: Int) {
        precondition(size > 0 && keptMaximum >= 0, "a pool keeps 0 or more buffers of a positive size")
        self.size = size
        self.keptMaximum = keptMaximum
    }

    deinit {
        for entry in kept.withLock({ $0 }) { entry.buffer.deallocate() }
    }

    /// How many buffers wait in the pool.
    var keptCount: Int { kept.withLock { $0.count } }

    /// The bytes of the buffers waiting in the pool (at most ``keptMaximum`` times ``size``, 4 MiB for
    /// ``shared``): what a measure of what each copy holds afterwards leaves out and names apart.
    package var keptBytes: Int { kept.withLock { $0.reduce(0) { $0 + $1.buffer.count } } }

    /// A buffer of `byteCount` bytes, page-aligned: a kept one when the pool keeps that size and has one.
    func take(_ byteCount: Int) -> UnsafeMutableRawBufferPointer {
        if byteCount == size, let taken = kept.withLock({ $0.popLast() }) { return taken.buffer }
        return UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: Self.alignment)
    }

    /// Takes back a buffer ``take(_:)`` handed out, which its owner no longer uses: kept when it has the
    /// pool's size and the pool is not full, freed otherwise.
    func give(_ buffer: UnsafeMutableRawBufferPointer) {
        if buffer.count == size {
            let keptIt = kept.withLock { kept in
                guard kept.count < keptMaximum else { return false }
                kept.append(Kept(buffer: buffer))
                return true
            }
            if keptIt { return }
        }
        buffer.deallocate()
    }
}
