/// Tuning of a copy: chunk size, how often progress is made durable, and the file system to use.
public struct CopyOptions: Sendable {
    /// The chunk size chosen by measurement (`CopyBenchmarks`, 64 KiB to 4 MiB): 256 KiB was fastest.
    /// Three ring buffers of it stay in a core's L2 cache while one is read into, written and hashed on
    /// the other core; from 512 KiB up the buffers spill and throughput halves, below 128 KiB per-chunk
    /// costs dominate. A pause lands within one chunk, well under a millisecond of I/O.
    public static let defaultChunkSize = 256 << 10

    /// The default distance between durable checkpoints.
    public static let defaultCheckpointInterval: Int64 = 64 << 20

    /// The default size from which a file is written straight to storage (``DirectWrites``): large
    /// enough that the copy of a small file, which its commit's `fsync` writes out at once anyway, keeps
    /// the cache's cheaper writes.
    public static let defaultDirectWriteMinimumSize: Int64 = 8 << 20

    /// The chunk size of a file written straight to storage, measured (1 GiB, alternated against 1 and
    /// 2 MiB, with the writes in the background): the device takes a few large writes better than many
    /// small ones, and the cache argument of ``defaultChunkSize`` does not hold, as the device, not the CPU,
    /// reads the written buffer. Six buffers of it, 24 MiB, per direct copy (``DirectWriteSlots``), so that
    /// several go to the device in one gathered write.
    public static let defaultDirectWriteChunkSize = 4 << 20

    /// Bytes read and written per step; a pause or cancel takes effect between steps.
    public var chunkSize: Int
    /// After at least this many new bytes the partial is fsynced and a checkpoint journaled; a crash
    /// loses at most this much work.
    public var checkpointInterval: Int64
    /// The system calls to use; tests inject failures here.
    public var fileSystem: FileSystem
    /// Files of at least this many bytes are written straight to storage where the file system can
    /// (``StagedFile/writeDirectly()``); `Int64.max` writes every file through the page cache.
    public var directWriteMinimumSize: Int64 = CopyOptions.defaultDirectWriteMinimumSize
    /// Bytes read and written per step for a file written straight to storage (a multiple of
    /// ``DirectWrites/alignment``, or its writes go through the cache).
    public var directWriteChunkSize: Int = CopyOptions.defaultDirectWriteChunkSize
    /// The slots a copy takes to write directly; a large file copied while they are all taken goes through
    /// the page cache.
    public var directWriteSlots: DirectWriteSlots = .shared
    /// How many files with no name (a small file's copy, ``StagedFile/unnamed(_:in:chunkSize:budget:)``) may be open
    /// at once: the process's budget.
    package var unnamedFiles: UnnamedFiles.Budget = .perProcess
    /// Decide whether a file already at the destination is the source's by comparing content (SHA-256 of
    /// both, like `rsync --checksum`) instead of size and modification time.
    public var comparesContent: Bool = false
    /// Told what a copy could not keep without failing (extended attributes the destination refuses),
    /// on the copy's thread.
    public var warn: @Sendable (_ warning: CopyWarning) -> Void = { _ in }

    /// Options with the measured defaults and the real file system.
    public init(
        chunkSize: Int = CopyOptions.defaultChunkSize,
        checkpointInterval: Int64 = CopyOptions.defaultCheckpointInterval,
        fileSystem: FileSystem = .posix
    ) {
        precondition(chunkSize > 0, "chunk size must be positive")
        precondition(checkpointInterval > 0, "checkpoint interval must be positive")
        self.chunkSize = chunkSize
        self.checkpointInterval = checkpointInterval
        self.fileSystem = fileSystem
    }
}
