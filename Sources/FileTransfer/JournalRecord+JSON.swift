import Support

/// A journal record's JSON, byte for byte what `JSONEncoder` writes with sorted keys and slashes left
/// unescaped (the format of every journal so far), written without the encoder's generic machinery: a tree
/// copy writes three lines a file, and the encoder took a sixteenth of its CPU time.
extension JournalRecord {
    /// The record as one JSON object: `{"CASE":{FIELDS}}`, the fields in sorted order.
    var json: [UInt8] {
        var writer = JSONObjectWriter()
        switch self {
        case .intent(let name, let request, let source, let sourceStatus, let replaces):
            writer.open("intent")
            writer.field("name", string: name)
            if let replaces { writer.field("replaces", string: replaces.hex) }
            writer.field("request", string: request)
            writer.field("source", string: source)
            writer.open("sourceStatus")
            writer.field("isDirectory", bool: sourceStatus.isDirectory)
            writer.field("isRegularFile", bool: sourceStatus.isRegularFile)
            writer.field("modifiedNanoseconds", integer: sourceStatus.modifiedNanoseconds)
            writer.field("size", integer: sourceStatus.size)
            writer.close()
        case .checkpoint(let name, let offset):
            writer.open("checkpoint")
            writer.field("name", string: name)
            writer.field("offset", integer: offset)
        case .committing(let name, let size, let digest):
            writer.open("committing")
            writer.field("digest", string: digest.hex)
            writer.field("name", string: name)
            writer.field("size", integer: size)
        case .completed(let name, let size, let digest):
            writer.open("completed")
            writer.field("digest", string: digest.hex)
            writer.field("name", string: name)
            writer.field("size", integer: size)
        case .failed(let name, let reason):
            writer.open("failed")
            writer.field("name", string: name)
            writer.field("reason", string: reason)
        case .cancelled(let name):
            writer.open("cancelled")
            writer.field("name", string: name)
        }
        return writer.finished()
    }
}

/// Writes nested JSON objects field by field; the caller gives the fields in sorted order.
private struct JSONObjectWriter {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    /// Open objects; for each, whether it has a field yet.
    private var hasField: [Bool] = [false]

    /// Starts the field `key` holding an object.
    mutating func open(_ key: String) {
        self.key(key)
        bytes.append(UInt8(ascii: "{"))
        hasField.append(false)
    }

    /// Ends the innermost open object.
    mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        hasField.removeLast()
    }

    mutating func field(_ key: String, string: String) {
        self.key(key)
        appendString(string)
    }

    mutating func field(_ key: String, integer: Int64) {
        self.key(key)
        bytes.append(contentsOf: String(integer).utf8)
    }

    mutating func field(_ key: String, bool: Bool) {
        self.key(key)
        bytes.append(contentsOf: (bool ? "true" : "false").utf8)
    }

    /// Every object closed.
    consuming func finished() -> [UInt8] {
        while !hasField.isEmpty { close() }
        return bytes
    }

    private mutating func key(_ key: String) {
        if hasField[hasField.count - 1] { bytes.append(UInt8(ascii: ",")) }
        hasField[hasField.count - 1] = true
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// `string` quoted: a quotation mark, a backslash and the control characters escaped (the short forms
    /// where JSON has one), everything else, slashes and non-ASCII included, as its UTF-8 bytes.
    private mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        defer { bytes.append(UInt8(ascii: "\"")) }
        // Most strings (keys, names, digests) need no escape: their bytes are copied at once.
        if !string.containsUTF8Byte(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: string.utf8)
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
    }
}
