/// The text of one cell stored inline, without a heap reference: up to 15 bytes of UTF-8 and their
/// count in two words. Cells are plain bits this way, so a 12 000-cell canvas is created, copied, compared
/// and freed without reference counting. A longer grapheme (a long emoji ZWJ sequence) keeps the scalars
/// that fit.
public struct Grapheme: Hashable, Sendable, CustomStringConvertible {
    private var low: UInt64
    private var high: UInt64

    /// The empty grapheme of a continuation cell.
    public static let empty = Grapheme(low: 0, high: 0)
    /// A space.
    public static let space = Grapheme(ascii: 0x20)

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// One ASCII byte.
    public init(ascii byte: UInt8) {
        low = UInt64(byte)
        high = 1 << 56
    }

    /// One scalar.
    public init(_ scalar: Unicode.Scalar) {
        self = .empty
        var index = 0
        for byte in UTF8.encode(scalar)! { setByte(byte, at: &index) }
        high |= UInt64(index) << 56
    }

    /// The first scalars of `text` that fit in 15 bytes of UTF-8 (whole scalars only).
    public init(_ text: String) {
        self = .empty
        var index = 0
        for scalar in text.unicodeScalars {
            let encoded = UTF8.encode(scalar)!
            if index + encoded.count > 15 { break }
            for byte in encoded { setByte(byte, at: &index) }
        }
        high |= UInt64(index) << 56
    }

    /// How many UTF-8 bytes are stored.
    public var byteCount: Int { Int(high >> 56) }

    /// The grapheme as a string.
    public var string: String {
        let count = byteCount
        return withUnsafeBytes(of: (low, high)) { raw in
            String(decoding: UnsafeRawBufferPointer(rebasing: raw[0..<count]), as: UTF8.self)
        }
    }

    /// The grapheme's text.
    public var description: String { string }

    private mutating func setByte(_ byte: UInt8, at index: inout Int) {
        if index < 8 {
            low |= UInt64(byte) << (8 * index)
        } else {
            high |= UInt64(byte) << (8 * (index - 8))
        }
        index += 1
    }
}
