/// A fixed-capacity ring keeping the newest `capacity` elements; appending never grows it past that.
///
/// Inlinable, like the rest of the event path, so that a client's machine is specialised for its own
/// `State` and `Event` instead of going through generic metadata on every event.
///
/// The elements sit in memory the ring allocates and writes in place: an array would ask on every record
/// whether its buffer is shared (a runtime call on the event path) although the ring is never copied, since it
/// lives in its machine's core behind the lock. A copy of a ring is the same ring. The memory starts with room
/// for a few elements and doubles as they come, up to the capacity: allocated at the capacity at once, every
/// machine with the default limit of 64 held about 10 KB of records it had not made (a copy dashboard that
/// started 20,000 rows, each a machine waiting its turn, peaked at 200 MB).
@usableFromInline
struct HistoryRing<Element> {
    /// The most elements kept.
    @usableFromInline let capacity: Int
    @usableFromInline let storage: RingStorage<Element>

    /// The room a ring has before its first element grows it.
    @usableFromInline static var initialRoom: Int { 4 }

    @inlinable
    init(capacity: Int) {
        precondition(capacity >= 0, "a history ring cannot hold \(capacity) elements")
        self.capacity = capacity
        storage = RingStorage(room: Swift.min(capacity, Self.initialRoom))
    }

    /// How many elements the ring holds.
    @inlinable
    var count: Int { storage.header.pointee.count }

    /// How many elements the ring has room for now without growing (at most ``capacity``).
    var room: Int { storage.header.pointee.room }

    /// Appends `element`, overwriting the oldest one when full.
    @inlinable
    mutating func append(_ element: consuming Element) {
        guard capacity > 0 else { return }
        let header = storage.header
        let count = header.pointee.count
        if count < capacity {
            // Not full, so nothing was overwritten yet and the elements are the first `count` slots.
            if count == header.pointee.room { storage.grow(to: Swift.min(capacity, 2 * count)) }
            (header.pointee.elements + count).initialize(to: element)
            header.pointee.count = count + 1
        } else {
            (header.pointee.elements + header.pointee.start).pointee = element
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
        let header = storage.header
        let oldest = header.pointee.elements + header.pointee.start
        update(&oldest.pointee)
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
        let header = storage.header.pointee
        let total = header.count
        precondition(count >= 0 && count <= total, "a ring of \(total) elements has no newest \(count)")
        var newest: [Element] = []
        newest.reserveCapacity(count)
        for index in (total - count)..<total {
            // The oldest element is at `start` once the ring is full, and at 0 until then (`start` is 0).
            newest.append(header.elements[(header.start + index) % total])
        }
        return newest
    }

    /// Every element, oldest first.
    var elements: [Element] { newest(count) }
}

/// A ring's memory and where its elements are: how many it holds, where the oldest is once it is full, and
/// how many its memory has room for.
@usableFromInline
struct RingHeader<Element> {
    @usableFromInline var count = 0
    @usableFromInline var start = 0
    @usableFromInline var room: Int
    @usableFromInline var elements: UnsafeMutablePointer<Element>

    @inlinable
    init(room: Int) {
        self.room = room
        elements = .allocate(capacity: room)
    }
}

/// A ring's memory, freed with the last reference to it. Only constants are stored in the object, so reaching
/// the elements and the header takes no exclusivity check.
///
/// The memory is freed by ``destroy``, made by the inlinable initialiser in code specialised for the elements'
/// type, as a machine's core is (``StateMachine/CoreCell``): the class's `deinit` runs unspecialised, and freeing
/// the ring there looked up its header's and its elements' types at run time, about 1,000 instructions a ring (a
/// tree copy lets two go a file).
@usableFromInline
final class RingStorage<Element> {
    @usableFromInline let header: UnsafeMutablePointer<RingHeader<Element>>
    /// Deinitialises the elements and frees them and the header.
    @usableFromInline let destroy: (UnsafeMutableRawPointer) -> Void

    @inlinable
    init(room: Int) {
        header = .allocate(capacity: 1)
        header.initialize(to: RingHeader(room: room))
        destroy = { address in
            let header = address.assumingMemoryBound(to: RingHeader<Element>.self)
            header.pointee.elements.deinitialize(count: header.pointee.count)
            header.pointee.elements.deallocate()
            header.deinitialize(count: 1)
            header.deallocate()
        }
    }

    /// Moves the elements (the first `count` slots: the ring is not full yet) to memory with room for `room`.
    @usableFromInline @inline(never)
    func grow(to room: Int) {
        let elements = UnsafeMutablePointer<Element>.allocate(capacity: room)
        elements.moveInitialize(from: header.pointee.elements, count: header.pointee.count)
        header.pointee.elements.deallocate()
        header.pointee.elements = elements
        header.pointee.room = room
    }

    deinit {
        destroy(UnsafeMutableRawPointer(header))
    }
}

// Unchecked because the memory is raw: a ring is read and written only under the lock of the machine whose
// core holds it, and what it hands out (`newest`, `elements`) are copies of its elements.
extension HistoryRing: @unchecked Sendable where Element: Sendable {}
