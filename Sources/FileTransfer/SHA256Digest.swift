/// A 32-byte SHA-256 digest; prints and encodes as 64 lowercase hexadecimal digits.
public struct SHA256Digest: Hashable, Sendable, CustomStringConvertible, Codable {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    /// Wraps 32 digest bytes.
    public init(bytes: [UInt8]) {
        precondition(bytes.count == 32, "a SHA-256 digest has 32 bytes, not \(bytes.count)")
        self.bytes = bytes
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
        self.bytes = bytes
    }

    /// 64 lowercase hexadecimal digits, as `sha256sum` prints them.
    public var hex: String { hex(leading: bytes.count) }

    /// The first `count` bytes in lower-case hexadecimal (two digits a byte).
    func hex(leading count: Int) -> String {
        precondition(count >= 0 && count <= bytes.count, "asked for \(count) of the digest's \(bytes.count) bytes")
        return String(unsafeUninitializedCapacity: 2 * count) { text in
            for (index, byte) in bytes.prefix(count).enumerated() {
                text[2 * index] = Self.digits[Int(byte >> 4)]
                text[2 * index + 1] = Self.digits[Int(byte & 0x0f)]
            }
            return 2 * count
        }
    }

    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

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
