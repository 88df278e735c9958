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
}
