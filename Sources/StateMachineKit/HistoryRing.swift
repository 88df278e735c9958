/// A fixed-capacity ring keeping the newest `capacity` elements; appending never grows it past that.
///
/// Inlinable, like the rest of the event path, so that a client's machine is specialised for its own
/// `State` and `Event` instead of going through generic metadata on every event.
///
/// The elements sit in memory the ring allocates once, at its capacity, and writes in place: an array would
/// ask on every record whether its buffer is shared (a runtime call on the event path) although the ring is
/// never copied, since it lives in its machine's core behind the lock. A copy of a ring is the same ring.
@usableFromInline
struct HistoryRing<Element> {
    /// The most elements kept.
    @usableFromInline let capacity: Int
    @usableFromInline let storage: RingStorage<Element>

    @usableFromInline
    init(capacity: Int) {
        precondition(capacity >= 0, "a history ring cannot hold \(capacity) elements")
        self.capacity = capacity
        storage = RingStorage(capacity: capacity)
    }

    /// How many elements the ring holds.
    @inlinable
    var count: Int { storage.header.pointee.count }

    /// Appends `element`, overwriting the oldest one when full.
    @inlinable
    mutating func append(_ element: consuming Element) {
        guard capacity > 0 else { return }
        let header = storage.header
        if header.pointee.count < capacity {
            (storage.elements + header.pointee.count).initialize(to: element)
            header.pointee.count += 1
        } else {
            storage.elements[header.pointee.start] = element
            advanceStart()
        }
    }

    /// Whether appending would overwrite the oldest element.
    @inlinable
    var isFull: Bool { storage.header.pointee.count == capacity }

    /// Overwrites the oldest element in place through `update` (the ring must be full and not empty).
    ///
    /// Updating fields in place lets a specialised caller store each field with its concrete type
    /// instead of assigning a whole generic element through value witnesses.
    @inlinable
    mutating func overwriteOldest(_ update: (inout Element) -> Void) {
        update(&storage.elements[storage.header.pointee.start])
        advanceStart()
    }

    /// Moves `start` past the element just written over, the oldest before.
    @inlinable
    func advanceStart() {
        let header = storage.header
        header.pointee.start += 1
        if header.pointee.start == capacity { header.pointee.start = 0 }
    }

    /// The newest `count` elements (at most as many as the ring holds), oldest first.
    @inlinable
    func newest(_ count: Int) -> [Element] {
        let total = storage.header.pointee.count
        precondition(count >= 0 && count <= total, "a ring of \(total) elements has no newest \(count)")
        var newest: [Element] = []
        newest.reserveCapacity(count)
        for index in (total - count)..<total {
            // The oldest element is at `start` once the ring is full, and at 0 until then (`start` is 0).
            newest.append(storage.elements[(storage.header.pointee.start + index) % total])
        }
        return newest
    }

    /// Every element, oldest first.
    var elements: [Element] { newest(count) }
}

/// How many elements a ring holds and where the oldest is once it is full.
@usableFromInline
struct RingHeader {
    @usableFromInline var count = 0
    @usableFromInline var start = 0
    @usableFromInline init() {}
}

/// A ring's memory, freed with the last reference to it. Only constants are stored in the object, so
/// reaching the elements and the header takes no exclusivity check.
@usableFromInline
final class RingStorage<Element> {
    @usableFromInline let elements: UnsafeMutablePointer<Element>
    @usableFromInline let header: UnsafeMutablePointer<RingHeader>

    @usableFromInline
    init(capacity: Int) {
        elements = .allocate(capacity: capacity)
        header = .allocate(capacity: 1)
        header.initialize(to: RingHeader())
    }

    deinit {
        elements.deinitialize(count: header.pointee.count)
        elements.deallocate()
        header.deallocate()
    }
}

// Unchecked because the memory is raw: a ring is read and written only under the lock of the machine whose
// core holds it, and what it hands out (`newest`, `elements`) are copies of its elements.
extension HistoryRing: @unchecked Sendable where Element: Sendable {}
