import Dispatch
import Support
import Testing

@testable import FileTransfer

@Suite struct SHA256Tests {
    /// FIPS 180-4 / NIST example vectors.
    static let vectors: [(message: [UInt8], digest: String)] = [
        ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            Array(
                ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                    + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
        (
            [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        ),
    ]

    @Test(arguments: 0..<vectors.count)
    func knownVectorsHash(index: Int) {
        let (message, digest) = Self.vectors[index]
        var hasher = SHA256()
        hasher.update(message)
        // Streamed, whole from contiguous bytes, and whole from a collection with no storage of its own.
        #expect(
            [hasher.finalize().hex, SHA256.hash(message).hex, SHA256.hash(message.lazy.map { $0 }).hex]
                == [digest, digest, digest])
    }

    /// Whole messages hashed one after another on each of several threads at once, on threads that end and
    /// threads that start after them (each thread's context is started anew for each message and freed with its
    /// thread): every digest is the message's, whatever was hashed before it on that thread.
    @Test func wholeMessagesHashedOnManyThreadsAtOnceAreEachTheirOwn() {
        let messages = Self.vectors.map(\.message).filter { $0.count < 1000 } + [Array("a".utf8), []]
        let expected = messages.map { message -> SHA256Digest in
            var hasher = SHA256()
            hasher.update(message)
            return hasher.finalize()
        }
        let wrong = Locked(0)
        for _ in 0..<3 {
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for round in 0..<200 {
                    let index = (thread + round) % messages.count
                    if SHA256.hash(messages[index]) != expected[index] { wrong.withLock { $0 += 1 } }
                }
            }
            // Threads of their own, which end (and free their contexts) before the next round's start.
            let ended = DispatchGroup()
            for thread in 0..<4 {
                ended.enter()
                DetachedThread.start(name: "hash \(thread)") {
                    for round in 0..<50 {
                        let index = (thread + round) % messages.count
                        if SHA256.hash(messages[index]) != expected[index] { wrong.withLock { $0 += 1 } }
                    }
                    ended.leave()
                }
            }
            ended.wait()
        }
        #expect(wrong.withLock { $0 } == 0)
    }

    @Test func millionAsFedOneByteAtATime() {
        var hasher = SHA256()
        let one: [UInt8] = [UInt8(ascii: "a")]
        for _ in 0..<1_000_000 { hasher.update(one) }
        #expect(hasher.finalize().hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(hasher.byteCount == 1_000_000)
    }

    @Test(arguments: [1, 3, 55, 56, 63, 64, 65, 127, 1000])
    func streamingInPiecesEqualsOneShot(pieceSize: Int) {
        let message = pattern(count: 5000, seed: UInt64(pieceSize))
        var streamed = SHA256()
        var start = 0
        while start < message.count {
            streamed.update(message[start..<min(start + pieceSize, message.count)])
            start += pieceSize
        }
        #expect(streamed.finalize() == SHA256.hash(message))
    }

    @Test func finalizeLeavesTheComputationRunning() {
        var hasher = SHA256()
        hasher.update(Array("ab".utf8))
        _ = hasher.finalize()
        hasher.update(Array("c".utf8))
        #expect(hasher.finalize() == SHA256.hash(Array("abc".utf8)))
    }

    @Test func digestHexRoundTripsAndRejectsNonsense() throws {
        let digest = SHA256.hash(Array("abc".utf8))
        #expect(SHA256Digest(hex: digest.hex) == digest)
        #expect(SHA256Digest(hex: digest.hex.uppercased()) == digest)
        #expect(SHA256Digest(hex: "abc") == nil)
        #expect(SHA256Digest(hex: String(repeating: "g", count: 64)) == nil)
    }

    /// A digest is its 32 bytes, held inline (a journal keeps one for every file it condensed), and reads back
    /// as it was made, byte for byte; digests differing in any one byte differ.
    @Test func aDigestIsItsThirtyTwoBytesHeldInline() {
        let bytes = (0..<32).map { UInt8($0 * 7 + 3) }
        let digest = SHA256Digest(bytes: bytes)
        #expect(MemoryLayout<SHA256Digest>.size == 32)
        #expect(digest.bytes == bytes)
        #expect(SHA256Digest(hex: digest.hex) == digest)
        for index in [0, 7, 8, 31] {
            var changed = bytes
            changed[index] ^= 1
            #expect(SHA256Digest(bytes: changed) != digest)
            #expect(Set([SHA256Digest(bytes: changed), digest]).count == 2)
        }
    }

    /// A copied hasher is independent: the resumed copy job keeps a copy of the running state while the
    /// original goes on (the libcrypto context behind it is duplicated on the first write to a copy). So is a
    /// copy made before the first byte, when there is no context yet.
    @Test func copiesOfAHasherGoOnIndependently() {
        let empty = SHA256()
        var fromEmpty = empty
        fromEmpty.update(Array("abc".utf8))
        var original = SHA256()
        original.update(Array("ab".utf8))
        var copy = original
        copy.update(Array("c".utf8))
        original.update(Array("x".utf8))
        #expect(
            [copy.finalize(), original.finalize(), empty.finalize(), fromEmpty.finalize()] == [
                SHA256.hash(Array("abc".utf8)), SHA256.hash(Array("abx".utf8)), SHA256.hash([]),
                SHA256.hash(Array("abc".utf8)),
            ])
        #expect([copy.byteCount, original.byteCount, empty.byteCount, fromEmpty.byteCount] == [3, 3, 0, 3])
    }

    /// libcrypto is opened by the first hash, by the soname of the major version its headers declare
    /// (Debian's libssl3 ships libcrypto.so.3), and the development name after it.
    @Test func libcryptoIsOpenedByTheHeadersSoname() throws {
        try SHA256.loadLibrary()
        #if os(Linux)
        #expect(LibCrypto.libraryNames == ["libcrypto.so.3", "libcrypto.so"])
        #endif
    }

    @Test func aMissingLibcryptoIsNamedWithItsPackage() {
        let error = LibCryptoError(library: "libcrypto.so.3", reason: "libcrypto.so.3: cannot open shared object file")
        #expect(
            error.description
                == "cannot load libcrypto.so.3 (OpenSSL 3's libcrypto, which SHA-256 needs; Debian: libssl3): "
                + "libcrypto.so.3: cannot open shared object file")
    }
}

/// The content digest is the one its documentation defines, byte for byte: SHA-256 of the name and version, an
/// entry for each segment (a run of complete segments of zeros as one) and the size, where a segment's digest is
/// SHA-256 of the first version's name, the segment's size, the digest of its runs of zero blocks and the digest
/// of its data; for empty content, data alone, zero blocks before and between data, and content of several
/// segments, runs of zeros among them fed as counts and as bytes.
@Suite struct ContentDigestDefinitionTests {
    static func littleEndian(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// The entry of a segment.
    static func segment(size: UInt64, runs: [(UInt64, UInt64)], data: [UInt8]) -> [UInt8] {
        let runBytes = runs.flatMap { littleEndian($0.0) + littleEndian($0.1) }
        return [1]
            + SHA256.hash(
                Array("statetui-content-sha256-v1\0".utf8) + littleEndian(size) + SHA256.hash(runBytes).bytes
                    + SHA256.hash(data).bytes
            ).bytes
    }

    /// The entry of a run of complete segments of zeros.
    static func zeroSegments(_ count: UInt64) -> [UInt8] {
        [0] + littleEndian(count)
    }

    static func defined(size: UInt64, segments: [[UInt8]]) -> SHA256Digest {
        SHA256.hash(Array("statetui-content-sha256-v2\0".utf8) + segments.flatMap { $0 } + littleEndian(size))
    }

    @Test func emptyContent() {
        #expect(ContentDigest.of([UInt8]()) == Self.defined(size: 0, segments: []))
    }

    @Test func dataAlone() {
        let data = Array("abc".utf8)
        #expect(
            ContentDigest.of(data) == Self.defined(size: 3, segments: [Self.segment(size: 3, runs: [], data: data)]))
    }

    @Test func zeroBlocksBeforeAndBetweenData() {
        let block = ContentDigest.blockSize
        let first = [UInt8](repeating: 7, count: block)
        let content = [UInt8](repeating: 0, count: 2 * block) + first + [UInt8](repeating: 0, count: block) + [1, 2]
        var fed = ContentDigest()
        content.withUnsafeBytes { fed.update(UnsafeRawBufferPointer(rebasing: $0[..<(2 * block)])) }
        fed.updateZeros(count: 0)
        content.withUnsafeBytes { fed.update(UnsafeRawBufferPointer(rebasing: $0[(2 * block)...])) }
        let segment = Self.segment(
            size: UInt64(content.count), runs: [(0, UInt64(2 * block)), (UInt64(3 * block), UInt64(block))],
            data: first + [1, 2])
        let expected = Self.defined(size: UInt64(content.count), segments: [segment])
        #expect([ContentDigest.of(content), fed.finalize()] == [expected, expected])
    }

    /// Six segments: data, two of zeros (one fed as bytes, one as a count: one run), data, zeros fed as bytes (a
    /// run of one), and a short last segment of zeros (an entry of its own, as the last segment always is).
    @Test func contentOfSeveralSegments() {
        let size = ContentDigest.segmentSize
        let zeros = [UInt8](repeating: 0, count: size)
        let head = pattern(count: size, seed: 3)
        let middle = pattern(count: size, seed: 4)
        let content = head + zeros + zeros + middle + zeros + [0, 0, 0]
        var fed = ContentDigest()
        head.withUnsafeBytes { fed.update($0) }
        zeros.withUnsafeBytes { fed.update($0) }
        fed.updateZeros(count: Int64(size))
        middle.withUnsafeBytes { fed.update($0) }
        fed.updateZeros(count: Int64(size) + 3)
        let expected = Self.defined(
            size: UInt64(content.count),
            segments: [
                Self.segment(size: UInt64(size), runs: [], data: head), Self.zeroSegments(2),
                Self.segment(size: UInt64(size), runs: [], data: middle), Self.zeroSegments(1),
                Self.segment(size: 3, runs: [(0, 3)], data: []),
            ])
        #expect([ContentDigest.of(content), fed.finalize()] == [expected, expected])
    }

    /// A hole of 7 EiB, the most a file holds on tmpfs, is one run: its digest is one short message.
    @Test func aHoleOfAnySizeIsOneRun() {
        let size = Int64(7) << 60
        var fed = ContentDigest()
        fed.updateZeros(count: size)
        #expect(
            fed.finalize()
                == Self.defined(
                    size: UInt64(size), segments: [Self.zeroSegments(UInt64(size) / UInt64(ContentDigest.segmentSize))])
        )
    }
}
