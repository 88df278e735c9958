import CSHA256

/// A streaming SHA-256 (FIPS 180-4) computation; uses the x86 SHA extensions when the CPU has them.
///
/// Foundation on Linux has no SHA-256, and the toolchain-only rule rules out swift-crypto, so the
/// compression function lives in the CSHA256 C target (intrinsics plus a portable fallback).
public struct SHA256: Sendable {
    private var context = csha256_context()

    /// Starts hashing an empty message.
    public init() {
        csha256_init(&context)
    }

    /// Starts hashing an empty message with the portable compression function even where the SHA
    /// extensions exist (to test and measure the fallback).
    public static func portable() -> SHA256 {
        var hasher = SHA256()
        csha256_init_portable(&hasher.context)
        return hasher
    }

    /// True when the hardware compression function is in use on this machine.
    public static var usesHardware: Bool { csha256_uses_hardware() != 0 }

    /// The number of message bytes hashed so far.
    public var byteCount: Int64 { Int64(context.length) }

    /// Hashes the next part of the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        csha256_update(&context, base, bytes.count)
    }

    /// Hashes the next part of the message.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if handled == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// The digest of everything hashed so far; the computation itself can go on afterwards.
    public func finalize() -> SHA256Digest {
        var copy = context
        var bytes = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeMutableBufferPointer { csha256_final(&copy, $0.baseAddress!) }
        return SHA256Digest(bytes: bytes)
    }

    /// The digest of one whole message.
    public static func hash(_ bytes: some Collection<UInt8>) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }
}
