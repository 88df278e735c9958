#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The digest a copy verifies and journals: SHA-256 over a file's content, defined so that it costs time
/// in proportion to the file's data, not its size (a 100 GB file holding one byte hashes one block).
///
/// The content is read as blocks of ``blockSize`` bytes at offsets that are multiples of it (the last
/// block may be shorter). A block whose bytes are all zero — a hole, or data the file system keeps that
/// happens to be zero — is a *zero block*; every other block is a *data block*. The digest is
///
///     SHA-256( "statetui-content-sha256-v1\0" ‖ size ‖ SHA-256(runs) ‖ SHA-256(data) )
///
/// where `size` is the byte count (UInt64, little endian), `runs` lists each maximal run of zero blocks as
/// its byte offset and byte length (two UInt64, little endian), and `data` is the bytes of every data
/// block in order. Size, runs and data together determine the content, so two contents share a digest
/// only if SHA-256 collides.
///
/// It is a function of the bytes alone, however the file system stores them: a hole (`SEEK_HOLE`) is fed
/// with ``updateZeros(count:)`` and never read, a zero block read as data hashes exactly the same, so the
/// source and the copy agree whether the destination keeps holes, fills them, or reports none. A digest
/// of a prefix (the kept part of a partial, for a resume) is ``finalize()`` after that prefix's bytes,
/// computed the same way from the source and from the partial.
public struct ContentDigest: Sendable {
    /// The granularity at which zeros are recognised: the page and file-system block size of every
    /// common system, so the holes a file system reports fall on block boundaries.
    public static let blockSize = 4096

    /// The bytes of every data block, in order.
    private var data = SHA256()
    /// Offset and length of each maximal run of zero blocks that has ended.
    private var zeroRuns = SHA256()
    /// The bytes of the block in progress (fewer than ``blockSize``); empty at a block boundary.
    private var partialBlock: [UInt8] = []
    /// Where the current run of zero blocks began, while one is open.
    private var zeroRunStart: Int64?
    /// The bytes of the complete blocks fed so far (the content before ``partialBlock``).
    private var blockedCount: Int64 = 0

    /// The number of content bytes fed so far.
    public var byteCount: Int64 { blockedCount + Int64(partialBlock.count) }

    /// Starts the digest of empty content.
    public init() {}

    /// The digest of `bytes`.
    public static func of(_ bytes: some Collection<UInt8>) -> SHA256Digest {
        var digest = ContentDigest()
        Array(bytes).withUnsafeBytes { digest.update($0) }
        return digest.finalize()
    }

    /// Feeds the next bytes of the content.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        if !partialBlock.isEmpty {
            let taken = min(Self.blockSize - partialBlock.count, rest.count)
            partialBlock.append(contentsOf: rest.prefix(taken))
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(taken))
            guard partialBlock.count == Self.blockSize else { return }
            let block = partialBlock
            partialBlock.removeAll(keepingCapacity: true)
            block.withUnsafeBytes { addBlocks($0) }
        }
        let whole = rest.count - rest.count % Self.blockSize
        addBlocks(UnsafeRawBufferPointer(rebasing: rest.prefix(whole)))
        partialBlock.append(contentsOf: rest.dropFirst(whole))
    }

    /// Feeds `count` zero bytes without materialising them (a hole): at most one block's worth is
    /// touched, whatever the count.
    public mutating func updateZeros(count: Int64) {
        precondition(count >= 0, "a negative count of zeros")
        var remaining = count
        if !partialBlock.isEmpty {
            let taken = Int(min(Int64(Self.blockSize - partialBlock.count), remaining))
            updateWithZeroBlock(prefix: taken)
            remaining -= Int64(taken)
        }
        let whole = remaining - remaining % Int64(Self.blockSize)
        if whole > 0 {
            if zeroRunStart == nil { zeroRunStart = blockedCount }
            blockedCount += whole
        }
        updateWithZeroBlock(prefix: Int(remaining - whole))
    }

    /// Feeds the first `count` bytes of a zero block.
    private mutating func updateWithZeroBlock(prefix count: Int) {
        guard count > 0 else { return }
        zeroBlock.withUnsafeBytes { update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    /// The digest of everything fed so far; feeding can go on afterwards.
    public func finalize() -> SHA256Digest {
        var ending = self
        if !ending.partialBlock.isEmpty {
            let last = ending.partialBlock
            ending.partialBlock = []
            last.withUnsafeBytes { ending.addBlocks($0) }
        }
        ending.closeZeroRun(at: ending.blockedCount)
        // The outer message whole (99 bytes), hashed by one context finished in place.
        var outer = Self.domain
        outer.reserveCapacity(Self.domain.count + 8 + 2 * 32)
        outer += Self.littleEndian(ending.blockedCount)
        ending.zeroRuns.finalize().withUnsafeBytes { outer.append(contentsOf: $0) }
        ending.data.finalize().withUnsafeBytes { outer.append(contentsOf: $0) }
        return SHA256.hash(outer)
    }

    /// What the outer message begins with: the definition's name and version.
    private static let domain = Array("statetui-content-sha256-v1\0".utf8)

    /// Hashes whole blocks (the last may be short only when the content ends with it), each maximal
    /// stretch of data blocks in one update.
    private mutating func addBlocks(_ blocks: UnsafeRawBufferPointer) {
        var dataStart: Int?
        var position = 0
        while position < blocks.count {
            let length = min(Self.blockSize, blocks.count - position)
            let isZero = Self.isZero(UnsafeRawBufferPointer(rebasing: blocks[position..<position + length]))
            if isZero {
                if let start = dataStart {
                    data.update(UnsafeRawBufferPointer(rebasing: blocks[start..<position]))
                    dataStart = nil
                }
                if zeroRunStart == nil { zeroRunStart = blockedCount + Int64(position) }
            } else if dataStart == nil {
                closeZeroRun(at: blockedCount + Int64(position))
                dataStart = position
            }
            position += length
        }
        if let start = dataStart {
            data.update(UnsafeRawBufferPointer(rebasing: blocks[start...]))
        }
        blockedCount += Int64(blocks.count)
    }

    /// Records the open run of zero blocks as ending at `end`.
    private mutating func closeZeroRun(at end: Int64) {
        guard let start = zeroRunStart else { return }
        zeroRuns.update(Self.littleEndian(start) + Self.littleEndian(end - start))
        zeroRunStart = nil
    }

    private static func isZero(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        return zeroBlock.withUnsafeBytes { memcmp(base, $0.baseAddress!, bytes.count) == 0 }
    }

    private static func littleEndian(_ value: Int64) -> [UInt8] {
        withUnsafeBytes(of: UInt64(value).littleEndian) { Array($0) }
    }
}

/// One block of zeros, compared against and fed for holes.
private let zeroBlock = [UInt8](repeating: 0, count: ContentDigest.blockSize)
