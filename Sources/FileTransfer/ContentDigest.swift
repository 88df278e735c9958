#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The digest a copy verifies and journals: SHA-256 over a file's content, defined so that it costs time
/// in proportion to the file's data, not its size (a 100 GB file holding one byte hashes one block), and so
/// that a large file's hash can be computed on every core at once.
///
/// The content is cut into *segments* of ``segmentSize`` bytes (the last may be shorter). The digest is
///
///     SHA-256( "statetui-content-sha256-v2\0" ‖ entries ‖ size )
///
/// where `size` is the content's byte count (UInt64, little endian) and `entries` has one entry for each segment
/// in order, but one for each maximal run of complete segments of zeros: `0x00 ‖ count` (UInt64, little endian)
/// for such a run, `0x01 ‖ D(segment)` for every other segment, D being a segment's digest (below, 32 bytes). A
/// complete segment is of zeros exactly when its digest is that of ``segmentSize`` zero bytes (else SHA-256
/// collides), so the entries are a function of the content, and they give its segments, so two contents share a
/// digest only if SHA-256 collides. Empty content has no entry. A segment's digest depends on its bytes alone, so
/// the segments of a large file are hashed on several threads (``PipelinedHasher``) and combined in order; SHA-256
/// of one stream cannot be split across cores, and on a machine whose SHA-256 runs at about the speed of its disk
/// that single stream set the pace of a large file's copy. A hole of any length adds to one run: its cost does not
/// grow with its size (a 7 EiB sparse file holding nothing hashes one short message).
///
/// A segment's digest is read as blocks of ``blockSize`` bytes at offsets, within the segment, that are
/// multiples of it (the last block may be shorter). A block whose bytes are all zero — a hole, or data the file
/// system keeps that happens to be zero — is a *zero block*; every other block is a *data block*. It is
///
///     SHA-256( "statetui-content-sha256-v1\0" ‖ size ‖ SHA-256(runs) ‖ SHA-256(data) )
///
/// where `size` is the segment's byte count, `runs` lists each maximal run of zero blocks as its byte offset in
/// the segment and its byte length (two UInt64, little endian), and `data` is the bytes of every data block in
/// order (the whole content's digest before version 2 of this definition).
///
/// It is a function of the bytes alone, however the file system stores them: a hole (`SEEK_HOLE`) is fed
/// with ``updateZeros(count:)`` and never read, a zero block read as data hashes exactly the same, so the
/// source and the copy agree whether the destination keeps holes, fills them, or reports none. A digest
/// of a prefix (the kept part of a partial, for a resume) is ``finalize()`` after that prefix's bytes,
/// computed the same way from the source and from the partial.
///
/// A journal of an earlier version holds digests of the first definition; each is only ever compared with one
/// computed now, so such a journal's files are checked again from their content (a resume re-reads the partial and
/// the source, a copy already in place is recognised by its size and time or its content), and a file the old
/// journal wrote is not taken for this copy's own (replacing it needs `--overwrite`): nothing is trusted that was
/// not verified.
public struct ContentDigest: Sendable {
    /// The granularity at which zeros are recognised: the page and file-system block size of every
    /// common system, so the holes a file system reports fall on block boundaries.
    public static let blockSize = SegmentDigest.blockSize

    /// The bytes of a segment but the last: 1 MiB, so that a large file's 4 MiB chunk is hashed on four
    /// threads at most and a segment's own cost (four short hashes) is a ten-thousandth of its data's.
    public static let segmentSize = 1 << 20

    /// The definition's name and version, then the entries of the complete segments but the last run of zeros.
    private var entries = SHA256()
    /// How many complete segments were fed: the entries', and the run of zeros not written yet.
    private(set) var completedSegments: Int64 = 0
    /// The complete segments of zeros at the end of those fed, whose entry is written once the run ends.
    private var zeroRun: Int64 = 0
    /// The segment in progress, short of ``segmentSize``: empty at a segment boundary.
    private(set) var current = SegmentDigest()

    /// The number of content bytes fed so far.
    public var byteCount: Int64 { completedSegments * Int64(Self.segmentSize) + current.byteCount }

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
        while !rest.isEmpty {
            let taken = min(Self.segmentSize - Int(current.byteCount), rest.count)
            current.update(UnsafeRawBufferPointer(rebasing: rest.prefix(taken)))
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(taken))
            if current.byteCount == Self.segmentSize {
                add(current.finalize())
                current = SegmentDigest()
            }
        }
    }

    /// Feeds `count` zero bytes without materialising them (a hole): at most two blocks' worth is touched, and the
    /// whole segments between are counted, whatever the count.
    public mutating func updateZeros(count: Int64) {
        precondition(count >= 0, "a negative count of zeros")
        var remaining = count
        if current.byteCount > 0 {
            let taken = min(Int64(Self.segmentSize) - current.byteCount, remaining)
            current.updateZeros(count: taken)
            remaining -= taken
            guard current.byteCount == Self.segmentSize else { return }
            add(current.finalize())
            current = SegmentDigest()
        }
        addZeroSegments(remaining / Int64(Self.segmentSize))
        current.updateZeros(count: remaining % Int64(Self.segmentSize))
    }

    /// The digest of everything fed so far; feeding can go on afterwards. The empty content's (every empty file's)
    /// is computed once for the process.
    public func finalize() -> SHA256Digest {
        byteCount == 0 ? Self.empty : computed()
    }

    /// The digest of empty content, by the definition.
    private static let empty = ContentDigest().computed()

    /// The digest of everything fed so far, by the definition.
    private func computed() -> SHA256Digest {
        var ending: [UInt8] = []
        ending.reserveCapacity(Self.domain.count + 2 * 9 + 32 + 8)
        if entries.byteCount == 0 { ending += Self.domain }
        ending += Self.runEntry(zeroRun)
        if current.byteCount > 0 { ending += Self.segmentEntry(current.finalize()) }
        ending += Self.littleEndian(byteCount)
        guard entries.byteCount > 0 else {
            // Nothing written before: one message, hashed whole (a file of one segment, most files of a tree).
            return SHA256.hash(ending)
        }
        var message = entries
        message.update(ending)
        return message.finalize()
    }

    /// What the message begins with: the definition's name and version.
    private static let domain = Array("statetui-content-sha256-v2\0".utf8)

    /// Adds the digest of the next complete segment.
    mutating func add(_ segment: SHA256Digest) {
        completedSegments += 1
        if segment == Self.zeroSegment {
            zeroRun += 1
            return
        }
        write(Self.runEntry(zeroRun) + Self.segmentEntry(segment))
        zeroRun = 0
    }

    /// Adds `count` complete segments of zeros: they lengthen the run of zeros at the end.
    mutating func addZeroSegments(_ count: Int64) {
        completedSegments += count
        zeroRun += count
    }

    /// Writes `bytes` after the entries, the definition's name first.
    private mutating func write(_ bytes: [UInt8]) {
        if entries.byteCount == 0 { entries.update(Self.domain) }
        entries.update(bytes)
    }

    /// The entry of a run of `count` complete segments of zeros; none when it is 0.
    private static func runEntry(_ count: Int64) -> [UInt8] {
        count > 0 ? [0] + littleEndian(count) : []
    }

    /// The entry of a segment other than a complete one of zeros.
    private static func segmentEntry(_ digest: SHA256Digest) -> [UInt8] {
        digest.withUnsafeBytes { [1] + $0 }
    }

    /// The digest of ``segmentSize`` zero bytes: a complete segment with it is in a run of zeros.
    private static let zeroSegment: SHA256Digest = {
        var zeros = SegmentDigest()
        zeros.updateZeros(count: Int64(segmentSize))
        return zeros.finalize()
    }()

    /// The digest fed so far with `current` as its segment in progress (it has `completedSegments` complete ones
    /// before it): ``PipelinedHasher`` hashes the segments on several threads and puts their parts together.
    func continued(with current: SegmentDigest) -> ContentDigest {
        precondition(current.byteCount < Self.segmentSize, "a segment in progress holds less than a segment")
        var digest = self
        digest.current = current
        return digest
    }

    /// The digest with no segment in progress: its complete segments only.
    var completedPart: ContentDigest { continued(with: SegmentDigest()) }

    static func littleEndian(_ value: Int64) -> [UInt8] {
        withUnsafeBytes(of: UInt64(value).littleEndian) { Array($0) }
    }
}

/// The digest of one segment of a content (``ContentDigest``): its size, its runs of zero blocks and its data.
struct SegmentDigest: Sendable {
    /// The granularity at which zeros are recognised.
    static let blockSize = 4096

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

    /// The number of bytes fed so far.
    var byteCount: Int64 { blockedCount + Int64(partialBlock.count) }

    /// Feeds the next bytes of the segment.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
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
    mutating func updateZeros(count: Int64) {
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

    /// The segment's digest of everything fed so far; feeding can go on afterwards.
    func finalize() -> SHA256Digest {
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
        outer += ContentDigest.littleEndian(ending.blockedCount)
        ending.zeroRuns.finalize().withUnsafeBytes { outer.append(contentsOf: $0) }
        ending.data.finalize().withUnsafeBytes { outer.append(contentsOf: $0) }
        return SHA256.hash(outer)
    }

    /// What the segment's message begins with: the first definition's name and version.
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
        zeroRuns.update(ContentDigest.littleEndian(start) + ContentDigest.littleEndian(end - start))
        zeroRunStart = nil
    }

    private static func isZero(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        return zeroBlock.withUnsafeBytes { memcmp(base, $0.baseAddress!, bytes.count) == 0 }
    }

}

/// One block of zeros, compared against and fed for holes.
private let zeroBlock = [UInt8](repeating: 0, count: SegmentDigest.blockSize)
