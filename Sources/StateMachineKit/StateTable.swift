/// An open-addressing hash index from states to their positions in an array, built for exploration.
///
/// Each slot packs 32 bits of the state's hash with its position plus one (0 marks an empty slot), so
/// a probe compares hash bits before touching the state array, and growing never hashes a state
/// again. One `hashValue` per lookup, no allocation per state, 8 bytes per slot at most 3/4 full.
@usableFromInline
struct StateTable: Sendable {
    /// Packed slots: hash bits in the high half, position + 1 in the low half, 0 when empty.
    @usableFromInline var slots: [UInt64]
    /// How many positions are stored.
    @usableFromInline var count: Int

    /// An empty table that holds `minimumCapacity` states before it first grows.
    @inlinable
    init(minimumCapacity: Int) {
        var size = 16
        while size / 4 * 3 < minimumCapacity { size *= 2 }
        slots = [UInt64](repeating: 0, count: size)
        count = 0
    }

    /// The bits of a state's hash kept in a slot.
    @inlinable
    static func fragment(_ state: some Hashable) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: state.hashValue))
    }

    /// The position of `state` in `states`, or the slot where it would go as `-(slot + 1)`.
    @inlinable
    func probe<State: Hashable>(_ state: State, fragment: UInt64, in states: [State]) -> Int {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: fragment) & mask
        while true {
            let packed = slots[slot]
            if packed == 0 { return -(slot + 1) }
            if packed >> 32 == fragment {
                let position = Int(truncatingIfNeeded: packed & 0xFFFF_FFFF) - 1
                if states[position] == state { return position }
            }
            slot = (slot + 1) & mask
        }
    }

    /// The position of `state` in `states`, if it was stored.
    @inlinable
    func position<State: Hashable>(of state: State, in states: [State]) -> Int? {
        let found = probe(state, fragment: Self.fragment(state), in: states)
        return found >= 0 ? found : nil
    }

    /// The first empty slot on the probe path of `fragment`, for a state known to be absent.
    @inlinable
    func emptySlot(for fragment: UInt64) -> Int {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: fragment) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        return slot
    }

    /// Whether `additional` more positions fit without passing the load limit of 3/4.
    @inlinable
    func hasRoom(for additional: Int) -> Bool { (count + additional) * 4 <= slots.count * 3 }

    /// Stores `position` in the empty `slot` a probe returned; the caller checked `hasRoom(for:)` first.
    @inlinable
    mutating func store(position: Int, fragment: UInt64, slot: Int) {
        slots[slot] = fragment << 32 | UInt64(position + 1)
        count += 1
    }

    /// Doubles the slots, moving each entry by its stored hash bits (no state is hashed again).
    @inlinable
    mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for packed in old where packed != 0 {
            var slot = Int(truncatingIfNeeded: packed >> 32) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = packed
        }

    }

    /// Bytes held by the slots.
    var bytes: Int { slots.capacity * MemoryLayout<UInt64>.stride }
}
