import Dispatch
import Support
import Synchronization

/// Hashes chunks (``ContentDigest``) on other threads while the caller goes on with I/O, through a small ring of
/// buffers.
///
/// SHA-256 of one stream cannot be split across cores, but a ``ContentDigest`` is defined over segments of
/// ``ContentDigest/segmentSize`` bytes hashed apart: the segments are hashed on ``HashLanes`` (segment k on lane
/// k mod the number of lanes, each lane a serial queue). A ring has one lane, as many copies run at once; the copy
/// of a file written straight to storage (one a process at a time) and the reading of a large file's content widen
/// it to one lane a core (``widen(to:)``), so such a file is hashed on every core at once. The whole overlaps with
/// reading and writing: the caller fills buffer k+1 while buffer k is hashed. The ring's
/// semaphores are the back-pressure: a buffer is handed out again only after every lane that hashes a part of it, and
/// its write, are done with it. Every lane is FIFO and gets its parts in the stream's order, but the lanes finish in
/// any order, so each buffer has a semaphore of its own and the ring waits for the one it lends out next.
///
/// With ``QueuedWrites`` in the background (a large file), a filled buffer is handed to their queue and to the
/// lanes at once: they only read it, so reading, writing and hashing overlap and the hash never waits for the
/// device. With writes made inline, a buffer is hashed after its write, the first chunk at once on the caller's
/// thread (a file of one chunk never waits for another thread to hash it).
final class PipelinedHasher: @unchecked Sendable {
    // `lanes` is touched by the producer only (its queues are made lazily); its pieces of work, queued or run in
    // place, touch each lane's state one at a time in order (``HashLanes``). The queued blocks capture a lane, the
    // combiner and a buffer's semaphore, never `self`, so the last release (and `deinit`, which drains the queues
    // before freeing the buffers) never happens on a queue itself.
    /// The ring, in one array (a file of a tree makes one ring): each buffer is allocated the first time it is
    /// handed out (a file of one chunk needs one), with its semaphore.
    private var ring: [RingSlot]
    private var next = 0
    /// How many chunks (and holes) were handed in; producer-only.
    private var handedIn = 0
    /// The content bytes handed in (chunks and holes), where the next piece begins; producer-only.
    private var position: Int64
    /// The digest of the first `handedIn` pieces, kept so that asking twice with nothing hashed in between
    /// finalises once; touched only by the producer.
    private var finalized: (handedIn: Int, digest: SHA256Digest)?
    private var lanes: HashLanes
    private let writes: QueuedWrites?

    /// The size of each ring buffer.
    let chunkSize: Int

    /// The size from which a file's content read whole (``feedContent(of:length:fileSystem:proceed:)``) is hashed on
    /// every core: the size from which a copy writes straight to storage.
    static let wideningSize = CopyOptions.defaultDirectWriteMinimumSize

    /// A ring of `depth` buffers of `chunkSize` bytes continuing `hasher` on `lanes` lanes; with `writes`, what
    /// ``fill(at:_:)`` fills is written there before it is hashed.
    init(
        chunkSize: Int, depth: Int = 3, hasher: ContentDigest = ContentDigest(), writes: QueuedWrites? = nil,
        lanes: Int = 1
    ) {
        precondition(chunkSize > 0 && depth > 0, "chunk size and depth must be positive")
        self.chunkSize = chunkSize
        self.writes = writes
        self.ring = Array(repeating: RingSlot(), count: depth)
        self.position = hasher.byteCount
        self.lanes = HashLanes(count: lanes, continuing: hasher)
    }

    deinit {
        waitForQueues()
        for case let buffer? in ring.lazy.map(\.buffer) { ChunkBuffers.shared.give(buffer) }
    }

    /// One ring buffer, page-aligned so that it can be written straight to storage: from the shared pool, which
    /// keeps buffers of the smallest chunk size for the next small file.
    private static func buffer(of size: Int) -> UnsafeMutableRawBufferPointer {
        ChunkBuffers.shared.take(size)
    }

    /// Returns once every chunk handed in so far is written (when this ring has ``QueuedWrites``) and hashed.
    private func waitForQueues() {
        writes?.waitForQueue()
        lanes.waitForQueues()
    }

    /// Adds buffers until the ring holds `depth`, once every chunk handed in so far is written and hashed
    /// (so every buffer is back): with more buffers filled ahead, ``QueuedWrites`` can write several at once.
    func deepen(to depth: Int) {
        guard depth > ring.count else { return }
        waitForQueues()
        ring.append(contentsOf: repeatElement(RingSlot(), count: depth - ring.count))
    }

    /// Hashes on `count` lanes from now on (when that is more than now), once every chunk handed in so far is
    /// written and hashed: the lanes so far are let go and new ones continue the digest. A file of a tree keeps one
    /// lane, so that 64 copies at once do not make 64 queues a core; a large one hashes on every core.
    func widen(to count: Int) {
        guard count > lanes.count else { return }
        waitForQueues()
        lanes = HashLanes(count: count, continuing: lanes.hashed())
    }

    /// Lends the next free buffer to `fill`, which returns how many bytes it put there; those bytes are
    /// then hashed in the background, after being written at `position` when this ring has ``QueuedWrites``
    /// and `position` is given. On a throw or a zero count nothing is hashed and the buffer returns.
    func fill<Failure: Error>(
        at position: Int64? = nil, _ fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> Int {
        let free = ring[next].free ?? DispatchSemaphore(value: 1)
        ring[next].free = free
        free.wait()
        let buffer = ring[next].buffer ?? Self.buffer(of: chunkSize)
        ring[next].buffer = buffer
        let count: Int
        do {
            count = try fill(buffer)
        } catch {
            free.signal()
            throw error
        }
        guard count > 0 else {
            free.signal()
            return 0
        }
        precondition(count <= buffer.count, "filled \(count) bytes into a \(buffer.count)-byte buffer")
        next = (next + 1) % ring.count
        // The ring hands this buffer out again only after the lanes and the write are done with it: they own it now.
        nonisolated(unsafe) let filled = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        let besideWrites = writesInBackground
        let pieces = take(count: Int64(count), bytes: filled)
        guard let position, let writes, besideWrites else {
            if let position { writes?.write(filled, at: position) }
            let release = Release(free, after: pieces.count)
            hash(pieces, besideWrites: besideWrites, then: release)
            return count
        }
        // Before, the hash of a chunk was queued only once its write had returned, so while the device took a
        // gathered write of several chunks the hashing queue idled, and a copy took the time of its writes and its
        // hashes rather than the longer of the two.
        let release = Release(free, after: pieces.count + 1)
        writes.write(filled, at: position)
        writes.after { release.done() }
        hash(pieces, besideWrites: true, then: release)
        return count
    }

    /// The lanes' pieces of work hashing the next `count` bytes of the content (`bytes`, or zeros when nil), and
    /// where the next piece begins moved past them.
    private func take(count: Int64, bytes: UnsafeRawBufferPointer?) -> [HashLanes.Piece] {
        let pieces = lanes.pieces(hashing: count, at: position, bytes: bytes)
        position += count
        handedIn += 1
        return pieces
    }

    /// Whether the writes are in the background (``QueuedWrites/writeInBackground()``), so that hashes go beside
    /// them rather than after them: asked once for each piece handed in.
    private var writesInBackground: Bool { writes?.isInBackground == true }

    /// Runs `pieces` on their lanes after every piece handed in before them, then tells `release` of each: at once
    /// when the writes are in the background (`besideWrites`, ``writesInBackground`` as the caller read it), else
    /// after the writes handed in so far; the first chunk of inline writes is hashed on the caller's thread, at once,
    /// when no lane has a queue yet. A file of one chunk, most files of a tree, then never waits for another thread
    /// to hash it; a larger one overlaps hashing with I/O from its second chunk on.
    private func hash(_ pieces: [HashLanes.Piece], besideWrites: Bool, then release: Release?) {
        if !besideWrites, handedIn == 1 {
            let inPlace: @Sendable () -> Void = {
                for piece in pieces {
                    piece.run()
                    release?.done()
                }
            }
            guard let writes else { return inPlace() }
            return writes.after(inPlace)
        }
        let queued = pieces.map { piece in
            (
                lanes.queue(for: piece),
                { @Sendable in
                    piece.run()
                    release?.done()
                }
            )
        }
        let enqueue: @Sendable () -> Void = { for (queue, work) in queued { queue.async(execute: work) } }
        guard !besideWrites, let writes else { return enqueue() }
        writes.after(enqueue)
    }

    /// Feeds `count` zero bytes (a hole) after the chunks handed in so far, without a buffer.
    func fillZeros(count: Int64) {
        hash(take(count: count, bytes: nil), besideWrites: writesInBackground, then: nil)
    }

    /// The ``ContentDigest`` of every chunk handed in so far (waits for the queues to drain, as ``state`` does).
    var digest: SHA256Digest {
        if let finalized, finalized.handedIn == handedIn { return finalized.digest }
        let digest = state.finalize()
        finalized = (handedIn, digest)
        return digest
    }

    /// How many bytes the hash took in so far, in order, waiting for the lanes only (never for a write: a chunk
    /// whose hash waits behind its write is not counted yet).
    var hashedByteCount: Int64 { lanes.hashedInOrder().byteCount }

    /// The hash state after every chunk handed in so far (waits for the queues to drain).
    var state: ContentDigest {
        writes?.waitForQueue()
        return lanes.hashed()
    }

    /// Feeds the content of the open file `descriptor` from its start, `length` bytes or to its end when
    /// nil: what the file system reports as data is read through the ring, its holes (`SEEK_HOLE`) are
    /// fed as zeros and never read, so the time spent follows the data, not the size. Returns the bytes
    /// fed, fewer than `length` when the file ends sooner; nil when `proceed` (asked with the bytes fed so far
    /// before each chunk or hole) says to stop.
    func feedContent(
        of descriptor: Int32, length: Int64?, fileSystem: FileSystem, proceed: (Int64) -> Bool = { _ in true }
    ) throws(Errno) -> Int64? {
        let size = try fileSystem.status(descriptor).size
        // One file read at a time (a resume's check, a content comparison): a large one on every core.
        if size >= Self.wideningSize { widen(to: HashLanes.defaultCount) }
        let end = length ?? Int64.max
        var position: Int64 = 0
        var segment = FileSegment(isHole: false, end: 0)
        while position < end {
            guard proceed(position) else { return nil }
            if position >= segment.end {
                // Past `st_size` everything read is data (files under /proc report 0 bytes).
                segment =
                    position < size
                    ? fileSystem.segment(of: descriptor, at: position, size: size)
                    : FileSegment(isHole: false, end: Int64.max)
            }
            let stop = min(segment.end, end)
            if segment.isHole {
                fillZeros(count: stop - position)
                position = stop
                continue
            }
            let wanted = Int(min(Int64(chunkSize), stop - position))
            let at = position
            let count = try fill { buffer throws(Errno) in
                try fileSystem.readFully(
                    descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]), at: at)
            }
            position += Int64(count)
            if count < wanted { break }
        }
        return position
    }
}

/// One buffer of a ``PipelinedHasher``'s ring and the semaphore signalled when it is free (its write and hashes
/// are done); both made the first time the buffer is handed out.
private struct RingSlot {
    var free: DispatchSemaphore?
    var buffer: UnsafeMutableRawBufferPointer?
}

/// Hands a ring buffer out again (signals its semaphore, `free`) once its write and every lane hashing a part of it
/// are done with it, in whichever order they finish.
private final class Release: Sendable {
    private let pending: Atomic<Int>
    private let free: DispatchSemaphore

    /// Signals `free` after `count` calls of ``done()``; at once when `count` is 0.
    init(_ free: DispatchSemaphore, after count: Int) {
        self.free = free
        self.pending = Atomic(count)
        if count == 0 { free.signal() }
    }

    /// One of them is done with the buffer.
    func done() {
        if pending.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { free.signal() }
    }
}
