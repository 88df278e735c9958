import Synchronization

/// How many copies may write straight to storage at once (``StagedFile/writeDirectly()``), shared by the
/// copies of a process.
///
/// A direct copy holds three buffers of ``CopyOptions/directWriteChunkSize`` (1 MiB) instead of three of
/// ``CopyOptions/defaultChunkSize`` (256 KiB). With up to 64 copies moving bytes at once, all of them direct
/// would hold 192 MiB; a few direct copies already keep one device busy, so the others take the page cache's
/// path while the slots are taken, and memory stays near what it was without direct writes.
public final class DirectWriteSlots: Sendable {
    /// The slots every copy shares unless its options name others.
    public static let shared = DirectWriteSlots(capacity: 8)

    /// How many copies may write directly at once.
    public let capacity: Int
    private let taken = Atomic(0)

    /// Slots for at most `capacity` direct copies at once (0: none writes directly).
    public init(capacity: Int) {
        precondition(capacity >= 0, "DirectWriteSlots: capacity must not be negative, got \(capacity)")
        self.capacity = capacity
    }

    /// Takes a slot if one is free; the caller gives it back with ``release()``.
    public func acquire() -> Bool {
        var current = taken.load(ordering: .relaxed)
        while current < capacity {
            let (exchanged, original) = taken.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives back a slot ``acquire()`` took.
    public func release() {
        taken.subtract(1, ordering: .acquiringAndReleasing)
    }

    /// How many slots are taken now.
    public var inUse: Int { taken.load(ordering: .relaxed) }
}
