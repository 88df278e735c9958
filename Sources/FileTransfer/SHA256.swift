#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming SHA-256 (FIPS 180-4) computation, performed by the system's libcrypto (OpenSSL 3), which is
/// opened when the first one starts (``loadLibrary()``).
///
/// libcrypto chooses the fastest compression function for the CPU (the x86 SHA extensions where they
/// exist). The value has value semantics: copying a `SHA256` and updating the copy leaves the original
/// as it was (the underlying `EVP_MD_CTX` is duplicated on the first write to a shared copy).
///
/// The context is made by the first byte hashed: a digest of nothing (an empty file's content, a copy's
/// hole-free file's runs of zeros) is the empty message's, which libcrypto computed once for the process.
public struct SHA256: Sendable {
    /// nil until the first byte is hashed.
    private var context: DigestContext?
    /// The number of message bytes hashed so far.
    public private(set) var byteCount: Int64 = 0

    /// Starts hashing an empty message.
    public init() {}

    /// Hashes the next part of the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if context == nil {
            context = DigestContext()
        } else if !isKnownUniquelyReferenced(&context) {
            context = context?.copy()
        }
        context?.update(base, count: bytes.count)
        byteCount += Int64(bytes.count)
    }

    /// Hashes the next part of the message.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        Self.withRawBytes(of: bytes) { update($0) }
    }

    /// Calls `body` with `bytes` in contiguous memory: their own storage when they have one, a copy otherwise.
    private static func withRawBytes(of bytes: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) -> Void) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { body(UnsafeRawBufferPointer($0)) }
        if handled == nil {
            Array(bytes).withUnsafeBytes(body)
        }
    }

    /// The digest of everything hashed so far; the computation itself can go on afterwards.
    public func finalize() -> SHA256Digest {
        context?.copy().finish() ?? Self.emptyMessage
    }

    /// The digest of the empty message, computed by libcrypto the first time it is asked for.
    private static let emptyMessage = DigestContext().finish()

    /// The digest of one whole message: one context, finished in place (``finalize()`` finishes a copy, so that
    /// hashing can go on, which a whole message does not need). A copy hashes each of its journal lines and its
    /// partial's name, and the copy of the context was a third of each hash's calls into libcrypto.
    public static func hash(_ bytes: some Collection<UInt8>) -> SHA256Digest {
        guard !bytes.isEmpty else { return emptyMessage }
        let context = DigestContext.ofThisThread()
        withRawBytes(of: bytes) { raw in
            if let base = raw.baseAddress { context.update(base, count: raw.count) }
        }
        return context.finish()
    }

    /// Opens libcrypto now if no hash has yet, and throws naming the library when it cannot be loaded. A
    /// command that hashes calls it before it starts, so a missing libcrypto ends in that message and an exit
    /// status rather than in a stop at the first hash.
    public static func loadLibrary() throws(LibCryptoError) {
        _ = try LibCrypto.shared.get()
    }
}

/// One `EVP_MD_CTX`, owned by exactly one ``SHA256`` value while it is written to, or by one thread, which hashes
/// its whole messages with it one after another (``ofThisThread()``).
///
/// `@unchecked Sendable`: the context is mutated only through `update` and `finish`, which ``SHA256``
/// calls only on a uniquely referenced instance (copy-on-write); shared instances are only read by
/// `copy()`, which libcrypto's `EVP_MD_CTX_copy_ex` does without modifying the source.
private final class DigestContext: @unchecked Sendable {
    private let library: LibCrypto
    private let pointer: OpaquePointer

    /// A context initialised for SHA-256.
    init() {
        library = LibCrypto.loaded
        pointer = Self.allocate(library)
        start()
    }

    /// Starts a computation, on a new context or on one finished before (libcrypto starts a finished one again).
    private func start() {
        guard library.digestInit(pointer, library.sha256, nil) == 1 else {
            preconditionFailure("libcrypto could not start a SHA-256 (EVP_DigestInit_ex2 failed)")
        }
    }

    /// The calling thread's context for whole messages (``SHA256/hash(_:)``), started anew: made the first time
    /// the thread asks, used for one message at a time (a hash calls nothing that hashes), freed when the thread
    /// ends. A context made and freed for each message cost three allocations and a tenth of a microsecond of
    /// libcrypto's own each, three times a file of a tree copy (its journal lines).
    static func ofThisThread() -> DigestContext {
        if let kept = pthread_getspecific(threadKey) {
            let context = Unmanaged<DigestContext>.fromOpaque(kept).takeUnretainedValue()
            context.start()
            return context
        }
        let made = DigestContext()
        guard pthread_setspecific(threadKey, Unmanaged.passRetained(made).toOpaque()) == 0 else {
            preconditionFailure("pthread_setspecific failed for the thread's SHA-256 context")
        }
        return made
    }

    /// The key of each thread's context (``ofThisThread()``), released by the key's destructor as the thread ends.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { kept in DigestContext.release(kept) }
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()

    /// Releases a thread's context, handed over as the key's value.
    private static func release(_ kept: UnsafeMutableRawPointer?) {
        if let kept { Unmanaged<DigestContext>.fromOpaque(kept).release() }
    }

    private init(copying other: DigestContext) {
        library = other.library
        pointer = Self.allocate(library)
        guard library.copyContext(pointer, other.pointer) == 1 else {
            preconditionFailure("libcrypto could not copy a SHA-256 context (EVP_MD_CTX_copy_ex failed)")
        }
    }

    deinit {
        library.freeContext(pointer)
    }

    private static func allocate(_ library: LibCrypto) -> OpaquePointer {
        guard let pointer = library.newContext() else {
            preconditionFailure("libcrypto could not allocate a digest context (EVP_MD_CTX_new failed)")
        }
        return pointer
    }

    /// An independent context in the same state.
    func copy() -> DigestContext {
        DigestContext(copying: self)
    }

    func update(_ bytes: UnsafeRawPointer, count: Int) {
        guard library.digestUpdate(pointer, bytes, count) == 1 else {
            preconditionFailure("libcrypto EVP_DigestUpdate failed on \(count) bytes")
        }
    }

    /// Ends the computation and returns the 32 digest bytes; the context is unusable afterwards.
    func finish() -> SHA256Digest {
        SHA256Digest { bytes in
            var length: UInt32 = 0
            let status = bytes.withMemoryRebound(to: UInt8.self) {
                library.digestFinal(pointer, $0.baseAddress, &length)
            }
            guard status == 1, length == 32 else {
                preconditionFailure("libcrypto EVP_DigestFinal_ex failed (status \(status), \(length) bytes)")
            }
        }
    }
}
