import Dispatch
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The threads a ``PipelinedHasher`` hashes a content's segments on (``ContentDigest``): segment k on lane k mod
/// the number of lanes, each lane a serial queue, and the segments' digests put together in order as they finish.
///
/// The producer (the ring's one caller) cuts each piece of content it hands in at the segment boundaries
/// (``pieces(hashing:at:bytes:)``) and queues each lane's part on that lane, in the stream's order, so a lane gets
/// the parts of its segments in order and finishes one segment before it starts its next. A segment's digest goes
/// to the combiner, which adds it to the content's digest once every segment before it is there; one that
/// finishes early waits in a table. Whole segments of zeros (a hole) are the same digest each and are added by the
/// producer at once, however many, as one run. The table is bounded by the ring: it holds only segments of the
/// chunks in flight (at most the ring's depth) and the runs of zeros between them.
///
/// A lane's queue is made the first time work goes to it: the first chunk of a file written inline is hashed on
/// the producer's thread, so a small file, one segment, makes none.
final class HashLanes: @unchecked Sendable {
    // `@unchecked Sendable`: `lanes` and each lane's `queue` are read and written only by the producer; a lane's
    // segment is touched only by the pieces of work for it, which run one at a time in order (in place before its
    // queue exists, then on it).

    /// The lanes of a ring that hashes on every core: one for each core, at most four (a 4 MiB chunk is four
    /// segments).
    static var defaultCount: Int { min(4, max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }

    /// The lanes, each made the first time a segment of its own comes (a file of one segment makes one).
    private var lanes: [Lane?]
    private let combiner: Combiner

    /// `count` lanes continuing `digest`: its segment in progress is the lane's of that segment.
    init(count: Int, continuing digest: ContentDigest) {
        precondition(count > 0, "a hasher needs a lane")
        lanes = Array(repeating: nil, count: count)
        combiner = Combiner(digest.completedPart)
        if digest.current.byteCount > 0 {
            let lane = lane(for: digest.completedSegments)
            lane.index = digest.completedSegments
            lane.segment = digest.current
        }
    }

    /// How many lanes there are.
    var count: Int { lanes.count }

    /// The lane of segment `segment`, made now if there is none yet.
    private func lane(for segment: Int64) -> Lane {
        let number = Int(segment % Int64(lanes.count))
        if let lane = lanes[number] { return lane }
        let lane = Lane()
        lanes[number] = lane
        return lane
    }

    /// The serial queue of the lane `piece` is for, made now if it has none.
    func queue(for piece: Piece) -> DispatchQueue {
        if let queue = piece.target.queue { return queue }
        let queue = DispatchQueue(label: "statetui.file-transfer.sha256")
        piece.target.queue = queue
        return queue
    }

    /// Waits for every piece queued on a lane so far.
    func waitForQueues() {
        for case let queue? in lanes.lazy.map({ $0?.queue }) { queue.sync {} }
    }

    /// The digest of every piece handed in so far, once the lanes have hashed them (waits for their queues). Every
    /// piece must have reached its lane: none may wait behind writes still to be made.
    func hashed() -> ContentDigest {
        let digest = hashedInOrder()
        precondition(combiner.isWhole, "segments finished after a gap that never filled")
        return digest
    }

    /// The digest of the pieces the lanes have hashed, up to the first one still to come (waits for their queues).
    func hashedInOrder() -> ContentDigest {
        waitForQueues()
        let complete = combiner.digest
        let next = complete.completedSegments
        guard let lane = lanes[Int(next % Int64(lanes.count))], lane.index == next, lane.segment.byteCount > 0 else {
            return complete
        }
        return complete.continued(with: lane.segment)
    }

    /// A lane's part of a piece of content: the parts of its segments there, in order.
    struct Piece: @unchecked Sendable {
        // `@unchecked Sendable`: the bytes are a ring buffer the ring lends out again only after the piece ran.
        fileprivate let target: Lane
        fileprivate let combiner: Combiner
        fileprivate var parts: [Part]

        /// Hashes the parts into the lane's segments and hands each segment they complete to the combiner.
        func run() {
            for part in parts { target.hash(part, into: combiner) }
        }
    }

    /// The bytes of one segment a piece holds: `count` bytes from `bytes` (zeros when nil).
    fileprivate struct Part {
        let segment: Int64
        let bytes: UnsafeRawBufferPointer?
        let count: Int64
        /// Whether the segment ends with these bytes.
        let completes: Bool
    }

    /// The pieces of work, one for each lane concerned, that hash `count` bytes of the content at `position`,
    /// `bytes` or zeros when nil; the whole segments of zeros among them are added to the digest now.
    func pieces(hashing count: Int64, at position: Int64, bytes: UnsafeRawBufferPointer?) -> [Piece] {
        let size = Int64(ContentDigest.segmentSize)
        var pieces: [Piece] = []
        var start = position
        let end = position + count
        while start < end {
            let segment = start / size
            if bytes == nil, start == segment * size, end - start >= size {
                // Whole segments of zeros: their digest is known, and however many they are they add one run.
                let count = (end - start) / size
                combiner.addZeroSegments(count, from: segment)
                start += count * size
                continue
            }
            let segmentEnd = min(end, (segment + 1) * size)
            let slice = bytes.map {
                UnsafeRawBufferPointer(rebasing: $0[Int(start - position)..<Int(segmentEnd - position)])
            }
            let part = Part(
                segment: segment, bytes: slice, count: segmentEnd - start, completes: segmentEnd == (segment + 1) * size
            )
            let lane = lane(for: segment)
            if let index = pieces.firstIndex(where: { $0.target === lane }) {
                pieces[index].parts.append(part)
            } else {
                pieces.append(Piece(target: lane, combiner: combiner, parts: [part]))
            }
            start = segmentEnd
        }
        return pieces
    }
}

/// One lane: its queue, made and read by the producer only, and its segment in progress, touched by one piece of
/// work at a time.
private final class Lane: @unchecked Sendable {
    /// Its serial queue, once work went to one.
    var queue: DispatchQueue?
    /// The segment in progress, or the last one the lane had.
    var index: Int64 = -1
    /// The digest of the bytes of segment ``index`` so far; empty once it was handed to the combiner.
    var segment = SegmentDigest()

    /// Hashes `part` into its segment; once the segment is complete, hands its digest to `combiner`.
    func hash(_ part: HashLanes.Part, into combiner: Combiner) {
        if index != part.segment {
            precondition(segment.byteCount == 0, "a lane's segment \(index) was left unfinished")
            index = part.segment
        }
        if let bytes = part.bytes {
            segment.update(bytes)
        } else {
            segment.updateZeros(count: part.count)
        }
        guard part.completes else { return }
        precondition(segment.byteCount == ContentDigest.segmentSize, "segment \(index) completed short")
        combiner.add(segment.finalize(), at: index)
        segment = SegmentDigest()
    }
}

/// The segments' digests put together in order (``ContentDigest/add(_:)``) as the lanes finish them.
private final class Combiner: Sendable {
    private let state: Locked<State>

    private struct State {
        /// The complete segments added so far, in order.
        var digest: ContentDigest
        /// What finished ahead of its turn, by the segment it begins at.
        var early: [Int64: Arrival] = [:]
    }

    private enum Arrival {
        case segment(SHA256Digest)
        case zeroSegments(count: Int64)
    }

    init(_ digest: ContentDigest) {
        state = Locked(State(digest: digest))
    }

    /// The complete segments added so far, in order (those after a gap wait).
    var digest: ContentDigest {
        state.withLock { $0.digest }
    }

    /// Whether nothing waits for a segment before it.
    var isWhole: Bool {
        state.withLock { $0.early.isEmpty }
    }

    /// Adds segment `index`'s digest when its turn came, else keeps it until then.
    func add(_ digest: SHA256Digest, at index: Int64) {
        arrive(.segment(digest), at: index)
    }

    /// Adds `count` whole segments of zeros from segment `first` on.
    func addZeroSegments(_ count: Int64, from first: Int64) {
        arrive(.zeroSegments(count: count), at: first)
    }

    private func arrive(_ arrival: Arrival, at index: Int64) {
        state.withLock { state in
            guard index == state.digest.completedSegments else {
                state.early[index] = arrival
                return
            }
            var next: Arrival? = arrival
            while let arrival = next {
                switch arrival {
                case .segment(let digest): state.digest.add(digest)
                case .zeroSegments(let count): state.digest.addZeroSegments(count)
                }
                next = state.early.removeValue(forKey: state.digest.completedSegments)
            }
        }
    }
}
