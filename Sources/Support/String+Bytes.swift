extension String {
    /// True when any of the string's UTF-8 bytes satisfies `predicate`: one pass over its contiguous storage (a
    /// native string's), or over its bytes one by one otherwise. A check made on every file name a copy writes
    /// (a separator, a NUL, a byte JSON escapes) costs a few instructions a byte instead of an iterator's step.
    @inlinable
    package func containsUTF8Byte(where predicate: (UInt8) -> Bool) -> Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ bytes in bytes.contains(where: predicate) }) {
            return found
        }
        return utf8.contains(where: predicate)
    }
}

extension Array where Element == UInt8 {
    /// Appends `string`'s UTF-8 bytes: at once from its contiguous storage (a native string's), or one by one
    /// otherwise. Appending a `String.UTF8View` as a sequence steps an iterator byte by byte, and the journal
    /// appends every key, name and digest of every line it writes.
    @inlinable
    package mutating func appendUTF8(of string: String) {
        let appended: Void? = string.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        if appended == nil { append(contentsOf: string.utf8) }
    }

    /// Appends `value` in decimal (a minus sign first when negative), as `String(value)` spells it, making no
    /// string: a modification time in nanoseconds has 19 digits, past what a string holds without a heap
    /// allocation, and the journal writes one for every file a tree copy starts.
    @inlinable
    package mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var count = 1
        var rest = magnitude / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        appendRoom(count)
        var index = endIndex
        repeat {
            index -= 1
            self[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }

    /// Appends `count` bytes (zeros) for the caller to fill in place: copied from a block of zeros, where
    /// appending `repeatElement(0, count:)` went through the generic path a byte at a time (0.8% of the
    /// instructions of a copy of many small files, whose journal lines make room for their digits so).
    @inlinable
    package mutating func appendRoom(_ count: Int) {
        var left = count
        while left > 0 {
            let taken = Swift.min(left, zeroBytes.count)
            append(contentsOf: zeroBytes[..<taken])
            left -= taken
        }
    }
}

/// The block ``Swift/Array/appendRoom(_:)`` copies from.
@usableFromInline let zeroBytes = [UInt8](repeating: 0, count: 64)
