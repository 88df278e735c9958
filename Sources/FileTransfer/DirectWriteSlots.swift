import Synchronization

/// How many copies may write straight to storage at once (``StagedFile/writeDirectly()``), shared by the
/// copies of a process.
///
/// A direct copy holds six buffers of ``CopyOptions/directWriteChunkSize`` (4 MiB), 24 MiB, instead of three
/// of ``CopyOptions/defaultChunkSize`` (256 KiB). With up to 64 copies moving bytes at once, all of them direct
/// would hold 1.5 GiB. One direct copy, its writes in the background and gathered, already keeps a device
/// busy with several requests at once, so one writes directly at a time and the others take the page
/// cache's path while the slot is taken: 64 large files copying together hold about 71 MiB of buffers.
public final class DirectWriteSlots: Sendable {
    /// The slots every copy shares unless its options name others.
    public static let shared = DirectWriteSlots(capacity: 1)

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
