import Dispatch
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writes of one partial, made in order on a serial queue, in the background for a large file.
///
/// A write straight to storage waits for the device; made inline, the next read and the hashing wait
/// with it and the device idles in between. In the background (``writeInBackground()``), the copy's loop
/// hands a filled buffer over and reads the next one while the device takes this one
/// (``PipelinedHasher`` hashes the buffer after its write and only then lends it out again). Otherwise each
/// write is made before the call returns, as a small file's single chunk gains nothing from the hand-over.
/// Either way, whatever runs on ``queue`` runs after every write handed in before it, so a checkpoint
/// queued there (``afterSuccess(_:)``) fsyncs only bytes already written.
///
/// The first failure is kept; later writes are skipped (their bytes would follow a gap), and it is
/// thrown by the next ``check()`` or ``drain()`` (at once, for a write made inline).
///
/// The queue is made the first time work goes to it (``writeInBackground()``, ``writeDirectly()``): a small file
/// written inline, one call after another on the copy's thread, runs each call's work in place instead, so a
/// tree of small files does not make and wait on a queue for each file.
final class QueuedWrites: Sendable {
    /// The serial queue the writes run on, in the order they were handed in, once there is one.
    private let madeQueue = Locked<DispatchQueue?>(nil)
    /// Held while work runs in place (no queue yet), so that such work runs one piece at a time as on a queue.
    private let inPlace = Locked(())
    private let descriptor: Int32
    private let fileSystem: FileSystem
    private let path: DeferredPath
    private let state: Locked<State>

    private struct State {
        /// Whether whole aligned pieces go straight to storage (``DirectWrites``).
        var direct = false
        /// Whether calls return before their work has run (``writeInBackground()``).
        var inBackground = false
        var failure: TransferError?
        /// The number (in hand-in order) of the first write that may not have been made: every write before
        /// it was. `Int.max` while none failed.
        var failedAt = Int.max
        /// How many writes were handed in: the number the next one gets.
        var handedIn = 0
        /// Writes handed in whose turn on the queue has not come yet, in order.
        var pending: [PendingWrite] = []
    }

    /// Bytes to write at a position, owned by the write until it has run (``PipelinedHasher`` lends the
    /// buffer out again only after the work queued behind it), so they may cross to the queue unchanged.
    private struct PendingWrite: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer
        let position: Int64
        /// Its number in hand-in order.
        let number: Int
    }

    /// The most bytes one call writes. Several filled buffers waiting their turn go to storage in one
    /// gathered write (``FileSystem/Calls/writeGathered``), which the block layer splits into requests of its
    /// largest size that the device takes at once, where one buffer a call would keep one at a time.
    static let largestGatheredWrite = 16 << 20

    /// Writes to `descriptor`, the partial at `path` (only for messages); the caller closes the
    /// descriptor, after ``drain()``.
    convenience init(descriptor: Int32, path: String, fileSystem: FileSystem) {
        self.init(descriptor: descriptor, location: DeferredPath(path), fileSystem: fileSystem)
    }

    /// Writes to `descriptor`, the partial at `location` (only for messages); the caller closes the
    /// descriptor, after ``drain()``.
    init(descriptor: Int32, location path: DeferredPath, fileSystem: FileSystem) {
        self.descriptor = descriptor
        self.path = path
        self.fileSystem = fileSystem
        self.state = Locked(State())
    }

    /// Queues writing `bytes` at `position`. The bytes must stay valid and unchanged until the write has
    /// run (``PipelinedHasher`` lends the buffer out again only after the work queued behind it). When its
    /// turn comes, it is written together with every write handed in after it meanwhile.
    func write(_ bytes: UnsafeRawBufferPointer, at position: Int64) {
        state.withLock { state in
            state.pending.append(PendingWrite(bytes: bytes, position: position, number: state.handedIn))
            state.handedIn += 1
        }
        after { [self] in writePending() }
    }

    /// On the queue: writes every pending write, contiguous ones gathered, unless an earlier one failed
    /// (then they are dropped: their bytes would follow a gap).
    private func writePending() {
        let (pending, direct) = state.withLock { state in
            defer { state.pending.removeAll(keepingCapacity: true) }
            return (state.pending, state.failure == nil ? state.direct : nil)
        }
        guard var direct, !pending.isEmpty else { return }
        var failure: (error: TransferError, at: Int)?
        var first = 0
        while first < pending.count && failure == nil {
            let end = gatheredEnd(of: pending, from: first, direct: direct)
            failure = writeRun(pending[first..<end], direct: &direct)
            first = end
        }
        state.withLock { state in
            state.direct = direct
            if let failure, state.failure == nil { (state.failure, state.failedAt) = failure }
        }
    }

    /// Where the run of writes from `first` that one call may make ends: each starts where the one before
    /// it ended, all fit together in ``largestGatheredWrite``, and while writing directly each is whole
    /// aligned blocks (one that is not goes alone, and turns direct writes off).
    private func gatheredEnd(of pending: [PendingWrite], from first: Int, direct: Bool) -> Int {
        func fits(_ write: PendingWrite) -> Bool {
            !direct || DirectWrites.fits(count: write.bytes.count, at: write.position)
        }
        guard fits(pending[first]) else { return first + 1 }
        var end = first + 1
        var count = pending[first].bytes.count
        while end < pending.count, fits(pending[end]),
            pending[end].position == pending[end - 1].position + Int64(pending[end - 1].bytes.count),
            count + pending[end].bytes.count <= Self.largestGatheredWrite
        {
            count += pending[end].bytes.count
            end += 1
        }
        return end
    }

    /// Writes a run that ``gatheredEnd(of:from:direct:)`` delimited: in one gathered call, or, where the file
    /// system has none, piece by piece. Returns the failure and the number of the first write it may have
    /// left out (the run's first for a gathered call, which does not tell how far it got).
    private func writeRun(_ run: ArraySlice<PendingWrite>, direct: inout Bool) -> (TransferError, Int)? {
        if run.count > 1 && fileSystem.writeGathered != nil {
            return writeAll(run, direct: &direct).map { ($0, run[run.startIndex].number) }
        }
        for index in run.indices {
            if let error = writeAll(run[index...index], direct: &direct) { return (error, run[index].number) }
        }
        return nil
    }

    /// Writes on the queue: directly while the pieces are whole aligned blocks and the file system takes
    /// them, through the cache from the first piece that is not (the end of the file, a piece after an
    /// unaligned hole) or that the file system refuses that way.
    private func writeAll(_ writes: ArraySlice<PendingWrite>, direct: inout Bool) -> TransferError? {
        let pieces = writes.map(\.bytes)
        let position = writes[writes.startIndex].position
        if direct && !writes.allSatisfy({ DirectWrites.fits(count: $0.bytes.count, at: $0.position) }) {
            direct = fileSystem.setDirectWrites(descriptor, false)
        }
        do throws(Errno) {
            do throws(Errno) {
                try fileSystem.writeAll(descriptor, pieces, at: position)
            } catch let refused where direct && refused.rawValue == EINVAL {
                direct = fileSystem.setDirectWrites(descriptor, false)
                try fileSystem.writeAll(descriptor, pieces, at: position)
            }
            return nil
        } catch {
            return TransferError.writing(path.string, operation: "write", error)
        }
    }

    /// The serial queue the writes run on, made now if there is none yet.
    var queue: DispatchQueue {
        madeQueue.withLock { made in
            if let made { return made }
            let queue = DispatchQueue(label: "statetui.file-transfer.write")
            made = queue
            return queue
        }
    }

    /// From now on, calls hand their work to the queue and return at once.
    func writeInBackground() {
        _ = queue
        state.withLock { $0.inBackground = true }
    }

    /// Whether calls return before their work has run (``writeInBackground()``).
    var isInBackground: Bool { state.withLock { $0.inBackground } }

    /// From now on, writes whole aligned pieces straight to storage where the file system can; returns
    /// whether it can.
    @discardableResult
    func writeDirectly() -> Bool {
        queue.sync {
            let direct = fileSystem.setDirectWrites(descriptor, true)
            state.withLock { $0.direct = direct }
            return direct
        }
    }

    /// Runs `body` on the queue after every write handed in so far, whether they succeeded or not: in the
    /// background, or before returning.
    func after(_ body: @escaping @Sendable () -> Void) {
        if state.withLock({ $0.inBackground }) {
            queue.async(execute: body)
        } else if let queue = madeQueue.withLock({ $0 }) {
            queue.sync(execute: body)
        } else {
            // No queue was ever made, so nothing was handed to one: every earlier write has run in place.
            inPlace.withLock { _ in body() }
        }
    }

    /// Waits for every piece of work handed to the queue so far (nothing to wait for when there is no queue).
    func waitForQueue() {
        madeQueue.withLock({ $0 })?.sync {}
    }

    /// Runs `body` on the queue after every write handed in so far, if they all succeeded: a checkpoint
    /// queued so never says that bytes are durable that a failed write left out. A write handed in after it
    /// that failed, even one made early together with those before it, does not stop it.
    func afterSuccess(_ body: @escaping @Sendable () -> Void) {
        let covered = state.withLock { $0.handedIn }
        after { [self] in
            if state.withLock({ $0.failedAt >= covered }) { body() }
        }
    }

    /// Throws the first failure of a write that has already run, without waiting for the others.
    func check() throws(TransferError) {
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Waits for every write handed in so far; throws the first failure.
    func drain() throws(TransferError) {
        waitForQueue()
        try check()
    }
}
