/// A fixed-capacity ring keeping the newest `capacity` elements; appending never grows it past that.
///
/// Inlinable, like the rest of the event path, so that a client's machine is specialised for its own
/// `State` and `Event` instead of going through generic metadata on every event.
@usableFromInline
struct HistoryRing<Element> {
    /// The most elements kept.
    @usableFromInline let capacity: Int
    @usableFromInline var storage: [Element] = []
    /// Index of the oldest element once the ring is full.
    @usableFromInline var start = 0

    @usableFromInline
    init(capacity: Int) {
        precondition(capacity >= 0, "a history ring cannot hold \(capacity) elements")
        self.capacity = capacity
    }

    /// Appends `element`, overwriting the oldest one when full.
    @inlinable
    mutating func append(_ element: consuming Element) {
        if storage.count < capacity {
            storage.append(element)
        } else if capacity > 0 {
            storage[start] = element
            start += 1
            if start == capacity { start = 0 }
        }
    }

    /// Whether appending would overwrite the oldest element.
    @inlinable
    var isFull: Bool { storage.count == capacity }

    /// Overwrites the oldest element in place through `update` (the ring must be full and not empty).
    ///
    /// Updating fields in place lets a specialised caller store each field with its concrete type
    /// instead of assigning a whole generic element through value witnesses.
    @inlinable
    mutating func overwriteOldest(_ update: (inout Element) -> Void) {
        update(&storage[start])
        start += 1
        if start == capacity { start = 0 }
    }

    /// The elements, oldest first.
    var elements: [Element] {
        if start == 0 { return storage }
        return Array(storage[start...]) + storage[..<start]
    }
}

extension HistoryRing: Sendable where Element: Sendable {}
