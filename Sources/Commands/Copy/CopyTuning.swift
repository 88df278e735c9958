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
///   end-to-end test can pause or kill it in the middle).
/// - `STATETUI_COPY_CHUNK_BYTES`: the chunk size.
/// - `STATETUI_COPY_CHECKPOINT_BYTES`: the distance between durable checkpoints.
package struct CopyTuning: Hashable, Sendable {
    /// The environment variable of the chunk delay.
    package static let chunkDelayVariable = "STATETUI_COPY_CHUNK_DELAY_MS"
    /// The environment variable of the chunk size.
    package static let chunkSizeVariable = "STATETUI_COPY_CHUNK_BYTES"
    /// The environment variable of the checkpoint interval.
    static let checkpointVariable = "STATETUI_COPY_CHECKPOINT_BYTES"

    /// Milliseconds to sleep after each chunk written; 0 for none.
    package var chunkDelayMilliseconds: Int
    /// Bytes per chunk.
    package var chunkSize: Int
    /// Bytes between durable checkpoints.
    package var checkpointInterval: Int64

    /// Tuning with explicit values.
    package init(
        chunkDelayMilliseconds: Int = 0, chunkSize: Int = CopyOptions.defaultChunkSize,
        checkpointInterval: Int64 = CopyOptions.defaultCheckpointInterval
    ) {
        self.chunkDelayMilliseconds = chunkDelayMilliseconds
        self.chunkSize = chunkSize
        self.checkpointInterval = checkpointInterval
    }

    /// Reads the variables; throws a message naming the variable whose value is not a number in range.
    package init(environment: [String: String]) throws(UsageError) {
        func number(_ name: String, minimum: Int, otherwise value: Int) throws(UsageError) -> Int {
            guard let text = environment[name] else { return value }
            guard let number = Int(text), number >= minimum else {
                throw UsageError("\(name)='\(text)' is not a whole number of at least \(minimum)", command: "copy")
            }
            return number
        }
        self.init(
            chunkDelayMilliseconds: try number(Self.chunkDelayVariable, minimum: 0, otherwise: 0),
            chunkSize: try number(Self.chunkSizeVariable, minimum: 1, otherwise: CopyOptions.defaultChunkSize),
            checkpointInterval: Int64(
                try number(
                    Self.checkpointVariable, minimum: 1, otherwise: Int(CopyOptions.defaultCheckpointInterval))))
    }

    /// Copy options with these values on the real file system (slowed down when a delay is set).
    package var options: CopyOptions {
        var fileSystem = FileSystem.posix
        if chunkDelayMilliseconds > 0 {
            let write = fileSystem.write
            let microseconds = useconds_t(chunkDelayMilliseconds * 1000)
            fileSystem.write = { descriptor, bytes, offset throws(Errno) in
                let count = try write(descriptor, bytes, offset)
                usleep(microseconds)
                return count
            }
        }
        return CopyOptions(chunkSize: chunkSize, checkpointInterval: checkpointInterval, fileSystem: fileSystem)
    }
}
