import Foundation
import Support
import Testing

@testable import FileTransfer

/// The copy's digest is a function of the content alone, computed in time proportional to the data:
/// zeros fed as a count (a hole) or as bytes (zeros the file system stores) give the same digest, in any
/// split, and any change of content changes it.
@Suite struct ContentDigestTests {
    /// Content with data, a long zero stretch that starts and ends inside blocks, and a short tail.
    static let content: [UInt8] =
        pattern(count: 5000, seed: 7) + [UInt8](repeating: 0, count: 3 * ContentDigest.blockSize + 100)
        + pattern(count: 9000, seed: 8) + [UInt8](repeating: 0, count: 10)

    /// Feeds `content` in pieces of `piece` bytes, stretches of zeros as counts when `zerosAsCount`.
    static func digest(of content: [UInt8], piece: Int, zerosAsCount: Bool) -> SHA256Digest {
        var digest = ContentDigest()
        var position = 0
        while position < content.count {
            let end = min(position + piece, content.count)
            let chunk = Array(content[position..<end])
            if zerosAsCount, chunk.allSatisfy({ $0 == 0 }) {
                digest.updateZeros(count: Int64(chunk.count))
            } else {
                chunk.withUnsafeBytes { digest.update($0) }
            }
            position = end
        }
        #expect(digest.byteCount == Int64(content.count))
        return digest.finalize()
    }

    @Test(arguments: [1, 100, 4095, 4096, 4097, 65_536, 1 << 20], [false, true])
    func theDigestIsTheSameHoweverTheContentIsFed(piece: Int, zerosAsCount: Bool) {
        #expect(
            Self.digest(of: Self.content, piece: piece, zerosAsCount: zerosAsCount) == ContentDigest.of(Self.content))
    }

    /// Content of several segments: data across the first boundary, zeros over a whole segment and into the next,
    /// data to a short last segment.
    static let longContent: [UInt8] =
        pattern(count: 3 << 19, seed: 11) + [UInt8](repeating: 0, count: (5 << 19) + 300)
        + pattern(count: 700_000, seed: 12) + [UInt8](repeating: 0, count: 10)

    @Test(arguments: [4096, 65_539, 1 << 20, 3 << 20], [false, true])
    func theDigestOfSeveralSegmentsIsTheSameHoweverTheContentIsFed(piece: Int, zerosAsCount: Bool) {
        #expect(
            Self.digest(of: Self.longContent, piece: piece, zerosAsCount: zerosAsCount)
                == ContentDigest.of(Self.longContent))
    }

    /// A hole of 64 GiB is fed as one count: the digest is the one of a short file of zeros grown by the
    /// same count, and differs from the same data placed elsewhere.
    @Test func aHugeHoleIsFedAsACount() {
        var sparse = ContentDigest()
        sparse.updateZeros(count: 64 << 30)
        [1, 2, 3].withUnsafeBytes { sparse.update($0) }
        var shifted = ContentDigest()
        shifted.updateZeros(count: (64 << 30) - 4096)
        [1, 2, 3].withUnsafeBytes { shifted.update($0) }
        shifted.updateZeros(count: 4096)
        #expect(sparse.byteCount == shifted.byteCount)
        #expect(sparse.finalize() != shifted.finalize())
    }

    /// Contents that differ only in where their zeros lie, or in their length of trailing zeros, differ.
    @Test func contentsThatDifferHaveDifferentDigests() {
        let data = pattern(count: 4096, seed: 9)
        let zeros = [UInt8](repeating: 0, count: 4096)
        let contents: [[UInt8]] = [
            [], [0], zeros, zeros + [0], data, data + zeros, zeros + data, data + zeros + data, data + data,
            data + [0], Array(data.dropLast()),
        ]
        let segment = [UInt8](repeating: 0, count: ContentDigest.segmentSize)
        let moreContents: [[UInt8]] = [segment, segment + [0], segment + data, data + segment, segment + segment]
        let digests = Set((contents + moreContents).map { ContentDigest.of($0) })
        #expect(digests.count == contents.count + moreContents.count)
    }

    /// Finalizing a prefix (a resume checks the kept prefix) leaves the running state as it was.
    @Test func finalizingAPrefixLeavesTheStateGoingOn() {
        var digest = ContentDigest()
        let half = Self.content.count / 2
        Array(Self.content[..<half]).withUnsafeBytes { digest.update($0) }
        #expect(digest.finalize() == ContentDigest.of(Self.content[..<half]))
        Array(Self.content[half...]).withUnsafeBytes { digest.update($0) }
        #expect(digest.finalize() == ContentDigest.of(Self.content))
    }
}
