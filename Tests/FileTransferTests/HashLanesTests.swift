import Foundation
import Support
import Testing

@testable import FileTransfer

/// A ring hashing a content's segments on several lanes gives the digest of the content hashed in one stream,
/// whatever the lanes, the chunk size and the holes, and continues a digest taken part way (a resume).
@Suite struct HashLanesTests {
    /// Content of five segments and a bit: data across boundaries, a hole fed as a count that starts inside a
    /// segment and covers two whole ones, data to a short last segment.
    static let segment = ContentDigest.segmentSize
    static let data = pattern(count: (3 * segment) / 2, seed: 21)
    static let hole = Int64(segment / 2 + 2 * segment + 4096)
    static let tail = pattern(count: segment + 12_345, seed: 22)
    static let content = data + [UInt8](repeating: 0, count: Int(hole)) + tail

    /// Feeds `data`, `hole` and `tail` through `hasher`, in chunks of at most its chunk size.
    static func feed(_ hasher: PipelinedHasher, _ bytes: ArraySlice<UInt8>) {
        var rest = bytes
        while !rest.isEmpty {
            let chunk = rest.prefix(hasher.chunkSize)
            let count = hasher.fill { buffer in
                buffer.copyBytes(from: chunk)
                return chunk.count
            }
            #expect(count == chunk.count)
            rest = rest.dropFirst(count)
        }
    }

    @Test(arguments: [1, 2, 3, 4], [4096, 300_000, 1 << 20, (4 << 20) + 4096])
    func theLanesGiveTheDigestOfOneStream(lanes: Int, chunkSize: Int) {
        let hasher = PipelinedHasher(chunkSize: chunkSize, lanes: lanes)
        Self.feed(hasher, Self.data[...])
        hasher.fillZeros(count: Self.hole)
        Self.feed(hasher, Self.tail[...])
        let state = hasher.state
        #expect(
            [hasher.digest, state.finalize(), ContentDigest.of(Self.content)]
                == Array(repeating: ContentDigest.of(Self.content), count: 3))
        #expect([state.byteCount, hasher.hashedByteCount] == [Int64(Self.content.count), Int64(Self.content.count)])
    }

    /// A ring continuing the state another took part way, inside a segment and at a boundary, ends with the whole
    /// content's digest; the state part way is the prefix's.
    @Test(arguments: [1, 2, 3], [Self.segment + 5000, 2 * Self.segment])
    func aRingContinuesAStateTakenPartWay(lanes: Int, split: Int) {
        let first = PipelinedHasher(chunkSize: 1 << 20, lanes: lanes)
        Self.feed(first, Self.content[..<split])
        let prefix = first.state
        #expect(prefix.finalize() == ContentDigest.of(Self.content[..<split]))
        let second = PipelinedHasher(chunkSize: 300_000, hasher: prefix, lanes: lanes)
        Self.feed(second, Self.content[split...])
        #expect(second.digest == ContentDigest.of(Self.content))
    }

    /// A ring widened part way, inside a segment, from one lane to several (a direct copy's, a large file read whole)
    /// ends with the digest of one stream; so does one widened again to fewer, which keeps its lanes.
    @Test(arguments: [2, 3, 4])
    func aRingWidenedPartWayGivesTheDigestOfOneStream(lanes: Int) {
        let hasher = PipelinedHasher(chunkSize: 300_000)
        Self.feed(hasher, Self.content[..<(Self.segment + 777)])
        hasher.widen(to: lanes)
        Self.feed(hasher, Self.content[(Self.segment + 777)..<(3 * Self.segment)])
        hasher.widen(to: 1)
        Self.feed(hasher, Self.content[(3 * Self.segment)...])
        #expect(hasher.digest == ContentDigest.of(Self.content))
    }

    /// A hole of 7 EiB after a little data, fed as one count on two lanes: its whole segments of zeros are added as
    /// one run, nothing done for each (an update for each would keep a 7 EiB sparse file's copy busy for hours), and
    /// the digest is the one of a single stream.
    @Test func aHugeHoleIsAddedAsARun() {
        let hole = Int64(7) << 60
        let hasher = PipelinedHasher(chunkSize: 1 << 20, lanes: 2)
        Self.feed(hasher, Self.data[..<1000])
        hasher.fillZeros(count: hole)
        Self.feed(hasher, Self.tail[..<10])
        var expected = ContentDigest()
        Self.data[..<1000].withUnsafeBytes { expected.update($0) }
        expected.updateZeros(count: hole)
        Self.tail[..<10].withUnsafeBytes { expected.update($0) }
        #expect(hasher.digest == expected.finalize())
    }
}
