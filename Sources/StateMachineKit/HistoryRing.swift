/// A fixed-capacity ring keeping the newest `capacity` elements; appending never grows it past that.
struct HistoryRing<Element> {
    /// The most elements kept.
    let capacity: Int
    private var storage: [Element] = []
    /// Index of the oldest element once the ring is full.
    private var start = 0

    init(capacity: Int) {
        precondition(capacity >= 0, "a history ring cannot hold \(capacity) elements")
        self.capacity = capacity
    }

    /// Appends `element`, overwriting the oldest one when full.
    mutating func append(_ element: Element) {
        if storage.count < capacity {
            storage.append(element)
        } else if capacity > 0 {
            storage[start] = element
            start += 1
            if start == capacity { start = 0 }
        }
    }

    /// The elements, oldest first.
    var elements: [Element] {
        if start == 0 { return storage }
        return Array(storage[start...]) + storage[..<start]
    }
}

extension HistoryRing: Sendable where Element: Sendable {}
