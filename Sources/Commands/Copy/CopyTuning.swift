import FileTransfer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Test and benchmark knobs of `statetui copy`, read from the environment (not options: users need
/// none of them). Unset variables keep the measured defaults.
///
/// - `STATETUI_COPY_CHUNK_DELAY_MS`: sleep this long after each chunk written (throttles a copy so an
///   end-to-end test can pause or kill it in the middle), at most a minute.
/// - `STATETUI_COPY_CHUNK_BYTES`: the chunk size, of every file (also those written straight to storage,
///   which otherwise take larger chunks); so does a chunk delay, so a throttled copy keeps one pace. At most
///   1 GiB.
/// - `STATETUI_COPY_CHECKPOINT_BYTES`: the distance between durable checkpoints.
/// - `STATETUI_COPY_DIRECT_BYTES`: the smallest file written straight to storage (`O_DIRECT`); a size
///   larger than any file (e.g. 9223372036854775807) writes every file through the page cache.
package struct CopyTuning: Hashable, Sendable {
    /// The environment variable of the chunk delay.
    package static let chunkDelayVariable = "STATETUI_COPY_CHUNK_DELAY_MS"
    /// The environment variable of the chunk size.
    package static let chunkSizeVariable = "STATETUI_COPY_CHUNK_BYTES"
    /// The environment variable of the checkpoint interval.
    static let checkpointVariable = "STATETUI_COPY_CHECKPOINT_BYTES"
    /// The environment variable of the smallest file written directly.
    static let directWriteVariable = "STATETUI_COPY_DIRECT_BYTES"

    /// Milliseconds to sleep after each chunk written; 0 for none.
    package var chunkDelayMilliseconds: Int
    /// Bytes per chunk of every file; nil for the defaults (larger chunks for files written directly).
    package var chunkSize: Int?
    /// Bytes between durable checkpoints.
    package var checkpointInterval: Int64
    /// The smallest file written straight to storage.
    package var directWriteMinimumSize: Int64

    /// Tuning with explicit values.
    package init(
        chunkDelayMilliseconds: Int = 0, chunkSize: Int? = nil,
        checkpointInterval: Int64 = CopyOptions.defaultCheckpointInterval,
        directWriteMinimumSize: Int64 = CopyOptions.defaultDirectWriteMinimumSize
    ) {
        self.chunkDelayMilliseconds = chunkDelayMilliseconds
        self.chunkSize = chunkSize
        self.checkpointInterval = checkpointInterval
        self.directWriteMinimumSize = directWriteMinimumSize
    }

    /// The longest chunk delay: a minute (a delay is slept in microseconds, which a larger one would overflow).
    static let maximumChunkDelayMilliseconds = 60_000
    /// The largest chunk: 1 GiB, allocated for every file copied at once.
    static let maximumChunkSize = 1 << 30

    /// Reads the variables; throws a message naming the variable whose value is not a number in range.
    package init(environment: [String: String]) throws(UsageError) {
        // The variable's value; nil when it is unset.
        func number(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let number = Int(text), range.contains(number) else {
                let bound =
                    range.upperBound == .max
                    ? "of at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
                throw UsageError("\(name)='\(text)' is not a whole number \(bound)", command: "copy")
            }
            return number
        }
        self.init(
            chunkDelayMilliseconds: try number(Self.chunkDelayVariable, in: 0...Self.maximumChunkDelayMilliseconds)
                ?? 0,
            chunkSize: try number(Self.chunkSizeVariable, in: 1...Self.maximumChunkSize),
            checkpointInterval: try number(Self.checkpointVariable, in: 1...Int.max).map(Int64.init)
                ?? CopyOptions.defaultCheckpointInterval,
            directWriteMinimumSize: try number(Self.directWriteVariable, in: 0...Int.max).map(Int64.init)
                ?? CopyOptions.defaultDirectWriteMinimumSize)
    }

    /// Copy options with these values on the real file system (slowed down when a delay is set).
    package var options: CopyOptions {
        var fileSystem = FileSystem.posix
        if chunkDelayMilliseconds > 0 {
            let write = fileSystem.write
            let microseconds = useconds_t(chunkDelayMilliseconds * 1000)
            fileSystem.calls.write = { descriptor, bytes, offset throws(Errno) in
                let count = try write(descriptor, bytes, offset)
                usleep(microseconds)
                return count
            }
        }
        var options = CopyOptions(
            chunkSize: chunkSize ?? CopyOptions.defaultChunkSize, checkpointInterval: checkpointInterval,
            fileSystem: fileSystem)
        options.directWriteMinimumSize = directWriteMinimumSize
        if let chunkSize {
            options.directWriteChunkSize = chunkSize
        } else if chunkDelayMilliseconds > 0 {
            options.directWriteChunkSize = options.chunkSize
        }
        return options
    }
}
