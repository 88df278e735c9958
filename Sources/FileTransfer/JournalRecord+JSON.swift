import Support

/// A journal record's JSON, byte for byte what `JSONEncoder` writes with sorted keys and slashes left
/// unescaped (the format of every journal so far), written without the encoder's generic machinery: a tree
/// copy writes three lines a file, and the encoder took a sixteenth of its CPU time.
extension JournalRecord {
    /// The record as one JSON object: `{"CASE":{FIELDS}}`, the fields in sorted order.
    var json: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.typicalJSONCapacity)
        appendJSON(to: &bytes)
        return bytes
    }

    /// The room reserved for a record's JSON: one with a path of a hundred bytes fits, no growth on the way.
    static let typicalJSONCapacity = 320

    /// Appends ``json`` to `bytes`: a journal line is written with its JSON in place, after its checksum's room.
    func appendJSON(to bytes: inout [UInt8]) {
        var writer = JSONObjectWriter(appendingTo: &bytes)
        defer { writer.finish(into: &bytes) }
        switch self {
        case .intent(let name, let request, let source, let sourceStatus, let replaces):
            writer.open("intent")
            writer.field("name", string: name)
            if let replaces { writer.field("replaces", hex: replaces) }
            writer.fields(of: JournalRecord.Intention(request: request, source: source, sourceStatus: sourceStatus))
        case .checkpoint(let name, let offset):
            writer.open("checkpoint")
            writer.field("name", string: name)
            writer.field("offset", integer: offset)
        case .committing(let name, let size, let digest):
            writer.open("committing")
            writer.field("digest", hex: digest)
            writer.field("name", string: name)
            writer.field("size", integer: size)
        case .committingFresh(let name, let intention, let size, let digest):
            writer.open("committingFresh")
            writer.field("digest", hex: digest)
            writer.open("intention")
            writer.fields(of: intention)
            writer.close()
            writer.field("name", string: name)
            writer.field("size", integer: size)
        case .completed(let name, let size, let digest):
            writer.open("completed")
            writer.field("digest", hex: digest)
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
    }
}

/// Writes nested JSON objects field by field; the caller gives the fields in sorted order. Keys are this file's
/// own literals (ASCII identifiers, nothing to escape); a line is written into one buffer reserved at once.
private struct JSONObjectWriter {
    private var bytes: [UInt8]
    /// How many objects are open.
    private var depth = 1
    /// Bit `n` set: the object open at depth `n + 1` has a field yet (a record nests two deep).
    private var hasField: UInt64 = 0

    /// Starts an object after what `bytes` holds, taking the array over (left empty) until ``finish(into:)``.
    init(appendingTo bytes: inout [UInt8]) {
        self.bytes = []
        swap(&self.bytes, &bytes)
        self.bytes.append(UInt8(ascii: "{"))
    }

    /// Starts the field `key` holding an object.
    mutating func open(_ key: StaticString) {
        self.key(key)
        bytes.append(UInt8(ascii: "{"))
        depth += 1
        precondition(depth <= UInt64.bitWidth, "JSON objects nested more than \(UInt64.bitWidth) deep")
    }

    /// Ends the innermost open object.
    mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        depth -= 1
        hasField &= ~(1 << depth)
    }

    mutating func field(_ key: StaticString, string: String) {
        self.key(key)
        appendString(string)
    }

    /// A digest in hexadecimal, as a string (its digits need no escape).
    mutating func field(_ key: StaticString, hex digest: SHA256Digest) {
        self.key(key)
        bytes.append(UInt8(ascii: "\""))
        digest.appendHex(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// An intention's fields (``JournalRecord/Intention``), which an intent record holds beside its name and the
    /// digest it replaces: in sorted order among those, and on their own in a fresh commitment's `intention`.
    mutating func fields(of intention: JournalRecord.Intention) {
        field("request", string: intention.request)
        field("source", string: intention.source)
        open("sourceStatus")
        field("isDirectory", bool: intention.sourceStatus.isDirectory)
        field("isRegularFile", bool: intention.sourceStatus.isRegularFile)
        field("modifiedNanoseconds", integer: intention.sourceStatus.modifiedNanoseconds)
        field("size", integer: intention.sourceStatus.size)
        close()
    }

    mutating func field(_ key: StaticString, integer: Int64) {
        self.key(key)
        bytes.appendDecimal(integer)
    }

    mutating func field(_ key: StaticString, bool: Bool) {
        self.key(key)
        bytes.appendUTF8(of: bool ? "true" : "false")
    }

    /// Closes every object and hands the bytes back to `bytes` (which ``init(appendingTo:)`` left empty).
    mutating func finish(into bytes: inout [UInt8]) {
        while depth > 0 { close() }
        swap(&self.bytes, &bytes)
    }

    private mutating func key(_ key: StaticString) {
        let bit: UInt64 = 1 << (depth - 1)
        if hasField & bit != 0 { bytes.append(UInt8(ascii: ",")) }
        hasField |= bit
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// `string` quoted: a quotation mark, a backslash and the control characters escaped (the short forms
    /// where JSON has one), everything else, slashes and non-ASCII included, as its UTF-8 bytes.
    private mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        defer { bytes.append(UInt8(ascii: "\"")) }
        // Most strings (keys, names, digests) need no escape: their bytes are copied at once.
        if !string.containsUTF8Byte(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.appendUTF8(of: string)
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
