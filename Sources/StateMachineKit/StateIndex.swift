/// The index of an explored graph's states: their positions sorted by a key made of 32 bits of their
/// hash, 4 bytes a state.
///
/// The hashes of Swift's `Hasher` are spread evenly, so a look-up guesses where a key falls from its
/// value and narrows the range from there (an interpolation search, every other step a halving so that
/// no spread of hashes costs more than a binary search). Each step hashes one stored state again, a few
/// on average; nothing is stored beside the positions. The key is the hash bits rotated so that those
/// that chose a slot in the search's ``VisitedTable`` come first: the table is then read out nearly in
/// order, and sorting it is one pass.
@usableFromInline
struct StateIndex: Sendable {
    /// Positions in the graph's states, in order of (key, position).
    @usableFromInline let positions: [Int32]
    /// The rotation of the hash bits that makes the key.
    @usableFromInline let slotBits: Int

    /// The index of the explored states `words` names, each word (key << 32 | position), as
    /// ``VisitedTable/explored()`` reads them out of a table with `slotBits` slot bits.
    @inlinable
    init(explored words: consuming [UInt64], slotBits: Int) {
        var words = words
        Self.insertionSort(&words)
        positions = [Int32](unsafeUninitializedCapacity: words.count) { buffer, count in
            for (place, word) in words.enumerated() {
                buffer[place] = Int32(truncatingIfNeeded: word & 0xFFFF_FFFF)
            }
            count = words.count
        }
        self.slotBits = slotBits
    }

    /// The sort key of a state with hash bits `fragment`: rotated right by the bits that chose its slot.
    @inlinable
    static func key(_ fragment: UInt32, slotBits: Int) -> UInt32 {
        slotBits == 0 ? fragment : fragment >> UInt32(slotBits) | fragment << UInt32(32 &- slotBits)
    }

    /// Sorts words that are nearly in order, in time proportional to their count and how far they are out.
    @inlinable
    static func insertionSort(_ words: inout [UInt64]) {
        words.withUnsafeMutableBufferPointer { words in
            guard words.count > 1 else { return }
            for place in 1..<words.count {
                let word = words[place]
                var hole = place
                while hole > 0 && words[hole &- 1] > word {
                    words[hole] = words[hole &- 1]
                    hole &-= 1
                }
                words[hole] = word
            }
        }
    }

    /// The position of `state` in `states`, if it was explored.
    @inlinable
    func position<State: Hashable>(of state: State, in states: [State]) -> Int? {
        let bits = slotBits
        let seeded = Hasher()
        let fragment = UInt64(Self.key(VisitedTable.fragment(state, seeded: seeded), slotBits: bits))
        func key(_ place: Int) -> UInt64 {
            UInt64(Self.key(VisitedTable.fragment(states[Int(positions[place])], seeded: seeded), slotBits: bits))
        }
        // The first place whose key is at least `fragment` lies in lower...upper; keys at lower - 1 and
        // upper are known to be below and at least `fragment` (virtual keys beyond both ends).
        var lower = 0
        var upper = positions.count
        var keyBelow: UInt64 = 0
        var keyAbove: UInt64 = 1 << 32
        var halving = false
        while lower < upper {
            let guess: Int
            if halving || keyAbove <= keyBelow {
                guess = lower &+ (upper &- lower) / 2
            } else {
                let spread = keyAbove &- keyBelow
                let offset = fragment > keyBelow ? (fragment &- keyBelow) &* UInt64(upper &- lower) / spread : 0
                guess = lower &+ Swift.min(Int(truncatingIfNeeded: offset), upper &- lower &- 1)
            }
            halving.toggle()
            let found = key(guess)
            if found < fragment {
                lower = guess &+ 1
                keyBelow = found
            } else {
                upper = guess
                keyAbove = found
            }
        }
        var place = lower
        while place < positions.count, key(place) == fragment {
            let position = Int(positions[place])
            if states[position] == state { return position }
            place &+= 1
        }
        return nil
    }

    /// Bytes held by the positions.
    var bytes: Int { positions.capacity * MemoryLayout<Int32>.stride }
}
