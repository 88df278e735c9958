import Support

/// A 32-byte SHA-256 digest; prints and encodes as 64 lowercase hexadecimal digits.
///
/// The bytes are held inline, not in an array: a journal keeps one for every file it condensed, and a digest
/// that allocated cost each of a copy dashboard's completed rows 80 bytes of heap more (issue 23, item 6).
public struct SHA256Digest: Hashable, Sendable, CustomStringConvertible, Codable {
    /// The 32 bytes, in order, as the memory of four words (compared and hashed as those words, which is as the
    /// bytes).
    private var words = Words()

    private struct Words: Hashable, Sendable {
        var first: UInt64 = 0
        var second: UInt64 = 0
        var third: UInt64 = 0
        var fourth: UInt64 = 0
    }

    /// The 32 digest bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Wraps 32 digest bytes.
    public init(bytes: [UInt8]) {
        precondition(bytes.count == 32, "a SHA-256 digest has 32 bytes, not \(bytes.count)")
        self.init { $0.copyBytes(from: bytes) }
    }

    /// The digest whose 32 bytes `fill` writes.
    init(filling fill: (UnsafeMutableRawBufferPointer) -> Void) {
        Swift.withUnsafeMutableBytes(of: &words) { fill($0) }
    }

    /// Calls `body` with the 32 digest bytes.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try Swift.withUnsafeBytes(of: words, body)
    }

    /// Parses 64 hexadecimal digits; nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = Self.value(of: digits[index]), let low = Self.value(of: digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        self.init(bytes: bytes)
    }

    /// 64 lowercase hexadecimal digits, as `sha256sum` prints them.
    public var hex: String { hex(leading: 32) }

    /// The first `count` bytes in lower-case hexadecimal (two digits a byte).
    func hex(leading count: Int) -> String {
        String(unsafeUninitializedCapacity: 2 * count) { text in writeHex(leading: count, into: text) }
    }

    /// Appends the 64 digits of ``hex`` to `bytes`, making no string (a journal line holds a digest in
    /// hexadecimal; its checksum, the leading digits of another, is written in place with ``writeHex(leading:into:)``).
    func appendHex(to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.appendRoom(64)
        bytes.withUnsafeMutableBufferPointer { all in
            _ = writeHex(leading: 32, into: UnsafeMutableBufferPointer(rebasing: all[start...]))
        }
    }

    /// Writes the first `count` bytes in lower-case hexadecimal at the start of `text`; returns how many digits.
    @discardableResult
    func writeHex(leading count: Int, into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(count >= 0 && count <= 32, "asked for \(count) of the digest's 32 bytes")
        precondition(text.count >= 2 * count, "room for \(text.count) digits, \(2 * count) needed")
        withUnsafeBytes { bytes in
            for index in 0..<count {
                let byte = bytes[index]
                text[2 * index] = Self.digit(byte >> 4)
                text[2 * index + 1] = Self.digit(byte & 0x0f)
            }
        }
        return 2 * count
    }

    /// The lower-case hexadecimal digit of `nibble` (0 to 15).
    @inline(__always)
    private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }

    /// The hexadecimal form.
    public var description: String { hex }

    /// Decodes the hexadecimal form.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let digest = SHA256Digest(hex: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a SHA-256 digest: \(text)"))
        }
        self = digest
    }

    /// Encodes the hexadecimal form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
