import FileTransfer
import Support

/// How many copies may move bytes at once: a running visit's work takes a slot before it opens any file and
/// gives it back when its run ends, so a tree of thousands of files started at once opens a bounded number of
/// descriptors (and hashing threads) instead of failing with "Too many open files" past the process's limit.
///
/// Slots are handed out in the order asked for. A visit that ends while it waits (pause, cancel, stop: its
/// task is cancelled) leaves the queue at once, holding nothing. The machine still decides everything: a
/// transfer waiting for a slot is `running` at its percent, and every event applies to it as to any other.
package final class CopySlots: Sendable {
    /// One task waiting for a slot.
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    /// The free slots and the queue.
    private struct Slots {
        var free: Int
        var waiting: [Waiter] = []
        var lastID = 0
        /// The streams of ``usages()`` still read, by id.
        var usageReaders: [Int: AsyncStream<Usage>.Continuation] = [:]

        /// Takes a free slot for the calling task: true; false when the task is cancelled (nothing taken); nil when
        /// no slot is free.
        mutating func takeFree(limit: Int) -> Bool? {
            if Task.isCancelled { return false }
            guard free > 0 else { return nil }
            free -= 1
            told(limit: limit)
            return true
        }

        /// Tells the readers of ``usages()`` the usage now, `limit` being the number of slots.
        func told(limit: Int) {
            guard !usageReaders.isEmpty else { return }
            let usage = (taken: limit - free, waiting: waiting.count)
            for reader in usageReaders.values { reader.yield(usage) }
        }
    }

    /// How many slots are taken and how many tasks wait.
    package typealias Usage = (taken: Int, waiting: Int)

    /// How many slots there are.
    package let limit: Int
    private let slots: Locked<Slots>

    /// `limit` slots (at least one).
    package init(limit: Int) {
        self.limit = max(1, limit)
        slots = Locked(Slots(free: max(1, limit)))
    }

    /// The slots every copy of this process shares (descriptors are the process's): as many as the soft
    /// limit on open files (``OpenFileLimit/current`` when the first copy is made) leaves room for at about
    /// eight descriptors a copy after 128 kept for everything else, between 1 and ``maximumPerProcess``.
    package static let perProcess = CopySlots(limit: limit(forOpenFiles: OpenFileLimit.current))

    /// The most copies that run at once however many descriptors the process may open.
    package static let maximumPerProcess = 64

    /// The slots for a process that may open `openFiles` descriptors.
    package static func limit(forOpenFiles openFiles: Int) -> Int {
        min(maximumPerProcess, max(1, (openFiles - 128) / 8))
    }

    /// Waits for a free slot and takes it: true once it is held (``release()`` gives it back); false when the
    /// task was cancelled first, holding nothing.
    package func acquire() async -> Bool {
        // A slot free (none is then waited for) or a task already cancelled: answered at once, with no
        // continuation and no cancellation handler.
        if let answer = slots.withLock({ $0.takeFree(limit: limit) }) { return answer }
        let id = slots.withLock { slots in
            slots.lastID += 1
            return slots.lastID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Under the lock: a cancellation that came first is seen here; one that comes later finds
                // the waiter in the queue.
                let answer: Bool? = slots.withLock { slots in
                    if let answer = slots.takeFree(limit: limit) { return answer }
                    slots.waiting.append(Waiter(id: id, continuation: continuation))
                    slots.told(limit: limit)
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = slots.withLock { slots -> Waiter? in
                guard let index = slots.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                defer { slots.told(limit: limit) }
                return slots.waiting.remove(at: index)
            }
            waiter?.continuation.resume(returning: false)
        }
    }

    /// Gives a slot back: to the longest waiting task, or to the free ones.
    package func release() {
        let next = slots.withLock { slots -> Waiter? in
            defer { slots.told(limit: limit) }
            guard !slots.waiting.isEmpty else {
                slots.free += 1
                return nil
            }
            return slots.waiting.removeFirst()
        }
        next?.continuation.resume(returning: true)
    }

    /// How many slots are taken and how many tasks wait.
    package var usage: Usage {
        slots.withLock { (limit - $0.free, $0.waiting.count) }
    }

    /// The usage now at once, then after each change (a slot taken or given back, a task queued or leaving
    /// the queue), newest only, for as long as the stream is read: what a caller awaits to know that a task
    /// is waiting, instead of polling ``usage``.
    package func usages() -> AsyncStream<Usage> {
        let (stream, continuation) = AsyncStream.makeStream(of: Usage.self, bufferingPolicy: .bufferingNewest(1))
        let id = slots.withLock { slots in
            slots.lastID += 1
            slots.usageReaders[slots.lastID] = continuation
            continuation.yield((taken: limit - slots.free, waiting: slots.waiting.count))
            return slots.lastID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.slots.withLock { $0.usageReaders.removeValue(forKey: id) }
        }
        return stream
    }
}
