import Dispatch
import Support

/// Hashes chunks (``ContentDigest``) on a serial queue while the caller goes on with I/O, through a small ring of buffers.
///
/// SHA-256 of one stream cannot be split across cores, but it can overlap with reading and writing:
/// the caller fills buffer k+1 while buffer k is hashed. The ring's semaphore is the back-pressure; a
/// buffer is handed out again only after the queue has hashed it (the queue is FIFO, so ring order holds).
///
/// With ``QueuedWrites`` in the background (a large file), a filled buffer is handed to their queue and to the
/// hashing queue at once: the two only read it, and it is handed out again once both are done with it, so
/// reading, writing and hashing overlap and the hash never waits for the device. Both queues are FIFO, so ring
/// order holds, and every hash (zeros included) goes to the hashing queue in the stream's order. With writes made
/// inline, a buffer is hashed after its write, the first chunk at once (a file of one chunk never waits for
/// another thread to hash it).
final class PipelinedHasher: @unchecked Sendable {
    // `running.hasher` is touched by one piece of work at a time, in order: the first chunk's hash (in place or
    // on the write queue), then the hashing queue's; `next` and `madeQueue` only by the single producer. The queued
    // blocks capture `running` and `free`, never `self`, so the last release (and `deinit`, which
    // drains the queues before freeing the buffers) never happens on a queue itself.
    /// The hashing queue, made the first time a chunk is hashed there (the first chunk is hashed where it was
    /// written, so a file of one chunk never makes it); touched only by the producer.
    private var madeQueue: DispatchQueue?
    private let free: DispatchSemaphore
    /// The ring; a buffer is allocated the first time it is handed out (a file of one chunk needs one).
    private var buffers: [UnsafeMutableRawBufferPointer?]
    private var next = 0
    /// How many chunks (and holes) were handed in; producer-only.
    private var handedIn = 0
    /// The digest of the first `handedIn` pieces, kept so that asking twice with nothing hashed in between
    /// finalises once; touched only by the producer.
    private var finalized: (handedIn: Int, digest: SHA256Digest)?
    private let running: Running
    private let writes: QueuedWrites?

    private final class Running: @unchecked Sendable {
        var hasher: ContentDigest
        init(_ hasher: ContentDigest) { self.hasher = hasher }
    }

    /// The size of each ring buffer.
    let chunkSize: Int

    /// A ring of `depth` buffers of `chunkSize` bytes continuing `hasher`; with `writes`, what ``fill(at:_:)``
    /// fills is written there before it is hashed.
    init(chunkSize: Int, depth: Int = 3, hasher: ContentDigest = ContentDigest(), writes: QueuedWrites? = nil) {
        precondition(chunkSize > 0 && depth > 0, "chunk size and depth must be positive")
        self.chunkSize = chunkSize
        self.writes = writes
        self.free = DispatchSemaphore(value: depth)
        self.buffers = Array(repeating: nil, count: depth)
        self.running = Running(hasher)
    }

    deinit {
        waitForQueues()
        for case let buffer? in buffers { ChunkBuffers.shared.give(buffer) }
    }

    /// One ring buffer, page-aligned so that it can be written straight to storage: from the shared pool, which
    /// keeps buffers of the smallest chunk size for the next small file.
    private static func buffer(of size: Int) -> UnsafeMutableRawBufferPointer {
        ChunkBuffers.shared.take(size)
    }

    /// Returns once every chunk handed in so far is written (when this ring has ``QueuedWrites``) and hashed.
    private func waitForQueues() {
        writes?.waitForQueue()
        madeQueue?.sync {}
    }

    /// The hashing queue, made now if there is none yet.
    private var queue: DispatchQueue {
        if let madeQueue { return madeQueue }
        let queue = DispatchQueue(label: "statetui.file-transfer.sha256")
        madeQueue = queue
        return queue
    }

    /// Adds buffers until the ring holds `depth`, once every chunk handed in so far is written and hashed
    /// (so every buffer is back): with more buffers filled ahead, ``QueuedWrites`` can write several at once.
    func deepen(to depth: Int) {
        guard depth > buffers.count else { return }
        waitForQueues()
        for _ in buffers.count..<depth {
            buffers.append(nil)
            free.signal()
        }
    }

    /// Lends the next free buffer to `fill`, which returns how many bytes it put there; those bytes are
    /// then hashed in the background, after being written at `position` when this ring has ``QueuedWrites``
    /// and `position` is given. On a throw or a zero count nothing is hashed and the buffer returns.
    func fill<Failure: Error>(
        at position: Int64? = nil, _ fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> Int {
        free.wait()
        let buffer = buffers[next] ?? Self.buffer(of: chunkSize)
        buffers[next] = buffer
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
        next = (next + 1) % buffers.count
        // The ring hands this buffer out again only after the queue signals, so the queue owns it now.
        nonisolated(unsafe) let filled = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        let running = self.running
        let free = self.free
        let besideWrites = writesInBackground
        guard let position, let writes, besideWrites else {
            if let position { writes?.write(filled, at: position) }
            hash(besideWrites: besideWrites) {
                running.hasher.update(filled)
                free.signal()
            }
            return count
        }
        // Before, the hash of a chunk was queued only once its write had returned, so while the device took a
        // gathered write of several chunks the hashing queue idled, and a copy took the time of its writes and its
        // hashes rather than the longer of the two.
        let release = ReleasedByBoth(free)
        writes.write(filled, at: position)
        writes.after { release.done() }
        hash(besideWrites: true) {
            running.hasher.update(filled)
            release.done()
        }
        return count
    }

    /// Whether the writes are in the background (``QueuedWrites/writeInBackground()``), so that hashes go beside
    /// them rather than after them: asked once for each piece handed in.
    private var writesInBackground: Bool { writes?.isInBackground == true }

    /// Queues `work` on the hashing queue after every hash handed in so far: at once when the writes are in the
    /// background (`besideWrites`, ``writesInBackground`` as the caller read it), else after the writes handed in
    /// so far; the first chunk of inline writes is hashed without the hashing queue, at once. A file of one chunk,
    /// most files of a tree, then never waits for another thread to hash it; a larger one overlaps hashing with
    /// I/O from its second chunk on.
    private func hash(besideWrites: Bool, _ work: @escaping @Sendable () -> Void) {
        handedIn += 1
        if besideWrites {
            return queue.async(execute: work)
        }
        if handedIn == 1 {
            guard let writes else { return work() }
            return writes.after(work)
        }
        guard let writes else { return queue.async(execute: work) }
        let queue = self.queue
        writes.after { queue.async(execute: work) }
    }

    /// Feeds `count` zero bytes (a hole) after the chunks handed in so far, without a buffer.
    func fillZeros(count: Int64) {
        let running = self.running
        hash(besideWrites: writesInBackground) { running.hasher.updateZeros(count: count) }
    }

    /// The ``ContentDigest`` of every chunk handed in so far (waits for the queues to drain, as ``state`` does).
    var digest: SHA256Digest {
        if let finalized, finalized.handedIn == handedIn { return finalized.digest }
        let digest = state.finalize()
        finalized = (handedIn, digest)
        return digest
    }

    /// How many bytes the hash took in so far, waiting for the hashing queue only (never for a write).
    var hashedByteCount: Int64 {
        guard let madeQueue else { return running.hasher.byteCount }
        return madeQueue.sync { running.hasher.byteCount }
    }

    /// The hash state after every chunk handed in so far (waits for the queues to drain).
    var state: ContentDigest {
        writes?.waitForQueue()
        guard let madeQueue else { return running.hasher }
        return madeQueue.sync { running.hasher }
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

/// Hands a ring buffer out again (signals `free`) once both its write and its hash are done with it, in whichever
/// order they finish.
private final class ReleasedByBoth: Sendable {
    private let pending = Locked(2)
    private let free: DispatchSemaphore

    init(_ free: DispatchSemaphore) {
        self.free = free
    }

    /// One of the two is done with the buffer.
    func done() {
        let last = pending.withLock { pending in
            pending -= 1
            return pending == 0
        }
        if last { free.signal() }
    }
}
