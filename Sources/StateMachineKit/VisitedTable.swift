import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The visited set of a running exploration: an open-addressing table that several threads look up and
/// insert into at once, without locks.
///
/// A slot is one 64-bit word: 32 bits of the state's hash above a 32-bit entry (0 marks an empty slot).
/// The hash bits also choose the slot, so a probe compares hashes before it touches a state, and growing
/// moves words without hashing a state again. An entry is one of three things:
/// - a state's position + 1 in the graph's states (an explored state);
/// - a pending state, found first in the current batch and not numbered yet: its cell in the batch,
///   where the finder put the state (``pendingFlag``);
/// - a refused state, found after the state limit was reached, kept so that later look-ups recognise it
///   (``refusedFlag``).
///
/// Threads only ever turn an empty slot into a full one, by compare-and-exchange, and a state is placed
/// on its probe path at the first slot found empty, so two threads that find the same new state agree on
/// one entry. Between batches one thread numbers the pending entries and grows the table.
@usableFromInline
final class VisitedTable: @unchecked Sendable {
    // Unchecked because `slots` is a raw buffer: its words are only touched through `Atomic`'s operations
    // while threads share the table, and `reserve` and `explored` are used by one thread
    // between batches, after the crew's `run` has returned.

    /// The slots, a power of two of them.
    @usableFromInline var slots: UnsafeMutablePointer<Atomic<UInt64>>
    /// `capacity - 1`, the bits of a hash that choose a slot.
    @usableFromInline var mask: Int
    /// How many slots are full.
    @usableFromInline var count: Int

    /// Entry bit of a pending state; the low bits are its cell in the batch.
    @inlinable static var pendingFlag: UInt32 { 0x8000_0000 }
    /// Entry bits of a refused state; the low bits are its place among the refused states.
    @inlinable static var refusedFlag: UInt32 { 0xC000_0000 }

    /// An empty table that holds `minimumCount` states before it must grow.
    @inlinable
    init(minimumCount: Int) {
        let capacity = Self.capacity(for: minimumCount)
        slots = Self.emptySlots(capacity)
        mask = capacity &- 1
        count = 0
    }

    deinit {
        Self.release(slots, capacity: mask &+ 1)
    }

    /// The smallest power of two (at least 16) that holds `count` states at most 3/4 full.
    @inlinable
    static func capacity(for count: Int) -> Int {
        var capacity = 16
        while capacity / 4 &* 3 < count { capacity &*= 2 }
        return capacity
    }

    /// Zeroed slots. A table of 4 MiB or more is mapped on its own, aligned to 2 MiB, and asks the kernel for
    /// huge pages: a look-up lands on a random slot, and with 4 KiB pages most would also miss the TLB.
    /// Fresh anonymous pages read as zero, which is `Atomic(0)`'s representation, so they are not written
    /// here: the threads that first touch them take the page faults.
    @inlinable
    static func emptySlots(_ capacity: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
        let bytes = capacity &* MemoryLayout<UInt64>.stride
        #if os(Linux)
        if bytes >= hugeTableBytes {
            let alignment = 2 << 20
            let mapped = mmap(nil, bytes &+ alignment, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            if let mapped, mapped != MAP_FAILED {
                let address = Int(bitPattern: mapped)
                let aligned = (address &+ alignment &- 1) & ~(alignment &- 1)
                if aligned > address { munmap(mapped, aligned &- address) }
                let tail = address &+ bytes &+ alignment &- (aligned &+ bytes)
                if tail > 0 { munmap(UnsafeMutableRawPointer(bitPattern: aligned &+ bytes), tail) }
                let memory = UnsafeMutableRawPointer(bitPattern: aligned)!
                _ = madvise(memory, bytes, MADV_HUGEPAGE)
                return memory.bindMemory(to: Atomic<UInt64>.self, capacity: capacity)
            }
        }
        #endif
        let slots = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: capacity)
        for slot in 0..<capacity { (slots + slot).initialize(to: Atomic(0)) }
        return slots
    }

    /// Tables of this many bytes or more are mapped on their own (``emptySlots(_:)``).
    @inlinable static var hugeTableBytes: Int { 4 << 20 }

    /// Frees slots made by ``emptySlots(_:)``.
    @inlinable
    static func release(_ slots: UnsafeMutablePointer<Atomic<UInt64>>, capacity: Int) {
        slots.deinitialize(count: capacity)
        #if os(Linux)
        let bytes = capacity &* MemoryLayout<UInt64>.stride
        if bytes >= hugeTableBytes {
            munmap(slots, bytes)
            return
        }
        #endif
        slots.deallocate()
    }

    /// Places the first state found, at position 0, in the empty table.
    @inlinable
    func placeFirst(fragment: UInt32) {
        slots[Int(truncatingIfNeeded: fragment) & mask].store(UInt64(fragment) << 32 | 1, ordering: .relaxed)
        count = 1
    }

    /// The 32 bits of a state's hash that the table keeps, from `seeded`, a `Hasher()` made before.
    ///
    /// Copying a hasher made once is cheaper than `hashValue`, which seeds a new one for every state, and
    /// gives the same value for the same state: every `Hasher()` in a process starts alike.
    @inlinable
    static func fragment(_ state: some Hashable, seeded: Hasher) -> UInt32 {
        var hasher = seeded
        state.hash(into: &hasher)
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }

    /// The word of slot `slot`, as every write before the one that filled it left it.
    @inlinable
    func word(_ slot: Int) -> UInt64 { slots[slot].load(ordering: .acquiring) }

    /// Fills the empty slot `slot` with `word`, unless another thread filled it first; then returns that word.
    @inlinable
    func claim(_ slot: Int, with word: UInt64) -> UInt64? {
        let result = slots[slot].compareExchange(expected: 0, desired: word, ordering: .acquiringAndReleasing)
        return result.exchanged ? nil : result.original
    }

    /// Doubles the slots until `additional` more states fit, moving each word by its hash bits, with `crew`
    /// for a large table. Between batches.
    @inlinable
    func reserve(_ additional: Int, crew: ExplorationCrew?) {
        let capacity = Self.capacity(for: count &+ additional)
        guard capacity > mask &+ 1 else { return }
        let old = slots
        let oldCapacity = mask &+ 1
        slots = Self.emptySlots(capacity)
        mask = capacity &- 1
        let moving = SlotMove(from: old, count: oldCapacity, to: slots, mask: mask, slotsPerTask: 1 << 15)
        runAll(moving, count: (oldCapacity &+ (1 << 15) &- 1) >> 15, crew: count >= 1 << 16 ? crew : nil)
        Self.release(old, capacity: oldCapacity)
    }

    /// Frees the slots once the search is over, leaving an empty table, so that the graph's index is built
    /// without the table beside it at the peak.
    @inlinable
    func removeAll() {
        Self.release(slots, capacity: mask &+ 1)
        slots = Self.emptySlots(16)
        mask = 15
        count = 0
    }

    /// How many bits of a hash choose a slot.
    @inlinable
    var slotBits: Int { (mask &+ 1).trailingZeroBitCount }

    /// Every explored state as one word, (``StateIndex/key(_:slotBits:)`` << 32 | position), nearly in
    /// increasing order: the key puts the bits that choose a slot first and the slots are read in order,
    /// so a word is out of place only by the few slots linear probing moved it. The run of full slots at
    /// the start may hold words that wrapped round from the end; they are read last.
    @inlinable
    func explored() -> [UInt64] {
        var words: [UInt64] = []
        words.reserveCapacity(count)
        var wrapped: [UInt64] = []
        let bits = slotBits
        var leading = true
        for slot in 0...mask {
            let word = slots[slot].load(ordering: .relaxed)
            if word == 0 { leading = false }
            let entry = UInt32(truncatingIfNeeded: word)
            guard word != 0 && entry & Self.pendingFlag == 0 else { continue }
            let fragment = UInt32(truncatingIfNeeded: word >> 32)
            let explored = UInt64(StateIndex.key(fragment, slotBits: bits)) << 32 | UInt64(entry &- 1)
            if leading && Int(truncatingIfNeeded: fragment) & mask > slot {
                wrapped.append(explored)
            } else {
                words.append(explored)
            }
        }
        words.append(contentsOf: wrapped)
        return words
    }
}

/// Moving a table's words into a larger one, a run of `slotsPerTask` old slots a task. Each word is
/// placed by compare-and-exchange at the first empty slot on its probe path, so tasks may run at once.
@usableFromInline
struct SlotMove: ConcurrentTasks, @unchecked Sendable {
    // Unchecked because the slots are raw buffers: each task reads only its own run of old slots, and every
    // write to the new slots is a compare-and-exchange.
    @usableFromInline let old: UnsafeMutablePointer<Atomic<UInt64>>
    @usableFromInline let oldCount: Int
    @usableFromInline let new: UnsafeMutablePointer<Atomic<UInt64>>
    @usableFromInline let mask: Int
    @usableFromInline let slotsPerTask: Int

    @inlinable
    init(
        from old: UnsafeMutablePointer<Atomic<UInt64>>, count oldCount: Int,
        to new: UnsafeMutablePointer<Atomic<UInt64>>, mask: Int,
        slotsPerTask: Int
    ) {
        self.old = old
        self.oldCount = oldCount
        self.new = new
        self.mask = mask
        self.slotsPerTask = slotsPerTask
    }

    @inlinable
    func run(_ task: Int) {
        let lower = task &* slotsPerTask
        for slot in lower..<Swift.min(lower &+ slotsPerTask, oldCount) {
            let word = old[slot].load(ordering: .relaxed)
            guard word != 0 else { continue }
            var target = Int(truncatingIfNeeded: word >> 32) & mask
            while !new[target].compareExchange(expected: 0, desired: word, ordering: .relaxed).exchanged {
                target = (target &+ 1) & mask
            }
        }
    }
}
