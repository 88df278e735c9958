import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hidden partial file beside a destination, from creation to commit or discard (a typestate).
///
/// The file lives as `.statetui-partial.HASH` in the destination directory (``partialName(for:)``), so a
/// partial never appears under the final name; a small file's copy, which is never resumed, writes a file with no
/// name instead where the file system has them (``unnamed(_:in:chunkSize:budget:)``), named only once complete.
/// `StagedFile` is `~Copyable` and its endings are `consuming`: after `commit`, `discard` or `close` the value is
/// gone, so committing twice or writing after a discard does not compile. Every byte written is hashed
/// (``ContentDigest``, on a second thread, overlapping the I/O), so the digest always describes the partial's
/// content; a resumed partial has its kept prefix hashed again from disk.
/// A large file's writes run in order on a queue of their own (``QueuedWrites``, ``writeInBackground()``)
/// while the next chunk is read; whatever reads the partial's state (`sync`, `digest`, the endings) waits
/// for them first, and a failed write is thrown by the next `write` or by that wait.
///
/// Dropping a `StagedFile` without ending it closes the descriptor and keeps the partial, as a crash
/// would; the journal's checkpoint says how much of it is durable.
public struct StagedFile: ~Copyable {
    /// The directory that holds both the partial and the final file, held open.
    public let destination: DestinationDirectory
    /// The final file name inside `directory`.
    public let name: String
    /// Bytes in the partial so far.
    public private(set) var offset: Int64
    /// Bytes known to be on stable storage (the offset at the last `sync`).
    public private(set) var durableOffset: Int64

    private var descriptor: Int32
    /// Where the bytes go: a partial under its name, or a file with no name.
    private let place: Place
    private let fileSystem: FileSystem
    private let hasher: PipelinedHasher
    private let writes: QueuedWrites

    /// The prefix of every partial's name.
    static let partialPrefix = ".statetui-partial."

    /// How many buffers a copy writing directly holds: while one gathered write of several of them
    /// (``QueuedWrites``) is at the device, the others are hashed, read and filled for the next. Measured
    /// on 1 GiB against 3, 5, 8 and 12 (3: one write at a time; more than 6 gained nothing measurable).
    static let directRingDepth = 6

    /// The partial's file name for a final name: hidden, never equal to a final name we write, and 34 bytes
    /// whatever the final name's length (`.statetui-partial.` and the first 16 hexadecimal digits of the
    /// SHA-256 of the name's bytes), so a final name of up to 255 bytes has a partial name that fits too.
    public static func partialName(for name: String) -> String {
        partialPrefix + SHA256.hash(FileName.bytes(name)).hex(leading: 8)
    }

    /// True for the names the copy keeps for itself in a destination: the journal's and any partial's.
    /// A file copied under one would replace the journal or another transfer's partial.
    static func isReserved(_ name: String) -> Bool {
        name == CopyJournal.fileName || name.hasPrefix(partialPrefix)
    }

    /// Why an entry under a reserved name is refused.
    static let reservedNameDetail = "the name is reserved for the copy's journal and partial files"

    /// The path of the directory that holds both the partial and the final file.
    public var directory: String { destination.path }

    /// The path of the partial file; for a file with no name, the path it gets (what its errors name).
    public var partialPath: String { partialLocation.string }

    /// ``partialPath``, joined only when a message asks for it.
    var partialLocation: DeferredPath { Self.location(of: place, name: name, in: destination) }

    /// The path of the partial at `place` for `name` in `directory`; for a file with no name, the path it gets.
    private static func location(of place: Place, name: String, in directory: DestinationDirectory) -> DeferredPath {
        switch place {
        case .named(let partialName): directory.location(of: partialName)
        case .unnamed: directory.location(of: name)
        }
    }

    /// True for a file with no name (``unnamed(_:in:chunkSize:budget:)``): nothing of it is kept for a later run.
    public var isUnnamed: Bool { partialName == nil }

    /// Where a staged file's bytes go.
    private enum Place {
        /// The partial's file name (``partialName(for:)``, a hash of `name`), computed once.
        case named(String)
        /// A file with no name (``unnamed(_:in:chunkSize:budget:)``), closed through its ``UnnamedFile``, which its
        /// seal hands on to be named.
        case unnamed(UnnamedFile)
    }

    /// The partial's file name; nil for a file with no name.
    private var partialName: String? {
        if case .named(let name) = place { name } else { nil }
    }

    /// The path the file gets when committed.
    public var finalPath: String { destination.path(of: name) }

    /// Creates an empty partial for `name` in `directory`, replacing any previous entry under the
    /// partial's name without following it (`O_CREAT | O_EXCL | O_NOFOLLOW`).
    public init(
        creating name: String, in directory: DestinationDirectory, chunkSize: Int = CopyOptions.defaultChunkSize
    ) throws(TransferError) {
        let partial = Self.partialName(for: name)
        let descriptor = try directory.create(partial, flags: O_RDWR, replacing: true)
        self.init(name: name, place: .named(partial), descriptor: descriptor, in: directory, chunkSize: chunkSize)
    }

    /// An empty file with no name for `name` in `directory` (``DestinationDirectory/createUnnamed(within:)``), named
    /// `name` by its commit, which refuses an entry found under that name then: for a copy that found no entry
    /// there and will not be resumed (a small file's). A crash or a stop leaves nothing of it; nil where the file
    /// system has no such files, or `budget`'s are all open (the caller creates a named partial,
    /// ``init(creating:in:chunkSize:)``).
    package static func unnamed(
        _ name: String, in directory: DestinationDirectory, chunkSize: Int = CopyOptions.defaultChunkSize,
        budget: UnnamedFiles.Budget = .perProcess
    ) -> StagedFile? {
        guard let descriptor = directory.createUnnamed(within: budget) else { return nil }
        let file = UnnamedFile(descriptor, closedBy: directory.fileSystem, countedIn: budget)
        return StagedFile(
            name: name, place: .unnamed(file), descriptor: descriptor, in: directory, chunkSize: chunkSize)
    }

    /// A new, empty partial open as `descriptor`, at `place`.
    private init(name: String, place: Place, descriptor: Int32, in directory: DestinationDirectory, chunkSize: Int) {
        self.descriptor = descriptor
        self.place = place
        self.destination = directory
        self.name = name
        self.fileSystem = directory.fileSystem
        self.offset = 0
        self.durableOffset = 0
        self.writes = QueuedWrites(
            descriptor: descriptor, location: Self.location(of: place, name: name, in: directory),
            fileSystem: directory.fileSystem)
        self.hasher = PipelinedHasher(chunkSize: chunkSize, writes: writes)
    }

    /// ``init(creating:in:chunkSize:)`` in the directory at a path, opened for this file alone.
    public init(
        creating name: String, in directory: String, chunkSize: Int = CopyOptions.defaultChunkSize,
        fileSystem: FileSystem = .posix
    ) throws(TransferError) {
        try self.init(
            creating: name, in: try DestinationDirectory(path: directory, fileSystem: fileSystem), chunkSize: chunkSize)
    }

    /// Reopens the partial for `name`, cuts it to its first `offset` bytes (the last durable checkpoint)
    /// and hashes that prefix again, so writing continues exactly where the durable data ends. The
    /// partial must be a regular file with no other hard link (a planted entry is refused).
    public init(
        resuming name: String, in directory: DestinationDirectory, keeping offset: Int64,
        chunkSize: Int = CopyOptions.defaultChunkSize
    ) throws(TransferError) {
        guard let kept = try Self.keptPrefix(of: name, in: directory, offset: offset, chunkSize: chunkSize) else {
            preconditionFailure("Internal inconsistency: a prefix hashed without a stop was not hashed whole")
        }
        self.init(name: name, in: directory, at: offset, kept: kept)
    }

    /// ``init(resuming:in:keeping:chunkSize:)`` asking `proceed` with the bytes hashed so far before each chunk
    /// of the prefix is read (a run's control: a pause or a cancel need not wait for a long prefix); nil when
    /// it said to stop, the partial then cut to its first `offset` bytes, as its checkpoint says, and closed.
    static func resuming(
        _ name: String, in directory: DestinationDirectory, keeping offset: Int64, chunkSize: Int,
        proceed: (Int64) -> Bool
    ) throws(TransferError) -> StagedFile? {
        guard
            let kept = try keptPrefix(of: name, in: directory, offset: offset, chunkSize: chunkSize, proceed: proceed)
        else { return nil }
        return StagedFile(name: name, in: directory, at: offset, kept: kept)
    }

    /// The partial of `name` reopened, cut to `offset` bytes and that prefix hashed; nil when `proceed` said to
    /// stop first (the descriptor is then closed).
    private static func keptPrefix(
        of name: String, in directory: DestinationDirectory, offset: Int64, chunkSize: Int,
        proceed: (Int64) -> Bool = { _ in true }
    ) throws(TransferError) -> (descriptor: Int32, writes: QueuedWrites, hasher: PipelinedHasher)? {
        let partial = partialName(for: name)
        let descriptor = try reopen(partial, in: directory)
        let path = directory.path(of: partial)
        let writes = QueuedWrites(descriptor: descriptor, path: path, fileSystem: directory.fileSystem)
        let hasher = PipelinedHasher(chunkSize: chunkSize, writes: writes)
        let whole: Bool
        do {
            whole = try keepPrefix(
                offset, of: descriptor, path: path, hashingInto: hasher, fileSystem: directory.fileSystem,
                proceed: proceed)
        } catch {
            directory.fileSystem.close(descriptor)
            throw error
        }
        guard whole else {
            directory.fileSystem.close(descriptor)
            return nil
        }
        return (descriptor, writes, hasher)
    }

    /// A partial reopened with its first `offset` bytes hashed (``keptPrefix(of:in:offset:chunkSize:proceed:)``).
    private init(
        name: String, in directory: DestinationDirectory, at offset: Int64,
        kept: (descriptor: Int32, writes: QueuedWrites, hasher: PipelinedHasher)
    ) {
        self.destination = directory
        self.name = name
        self.place = .named(Self.partialName(for: name))
        self.fileSystem = directory.fileSystem
        self.writes = kept.writes
        self.hasher = kept.hasher
        self.descriptor = kept.descriptor
        self.offset = offset
        self.durableOffset = offset
    }

    /// ``init(resuming:in:keeping:chunkSize:)`` in the directory at a path, opened for this file alone.
    public init(
        resuming name: String, in directory: String, keeping offset: Int64,
        chunkSize: Int = CopyOptions.defaultChunkSize, fileSystem: FileSystem = .posix
    ) throws(TransferError) {
        try self.init(
            resuming: name, in: try DestinationDirectory(path: directory, fileSystem: fileSystem), keeping: offset,
            chunkSize: chunkSize)
    }

    /// Reopens the partial for `name` that this process wrote and synced up to `offset`, continuing
    /// with `hashState` (the running SHA-256 of those bytes, kept in memory) instead of reading the
    /// prefix again.
    ///
    /// Memory is trusted only while the disk still agrees with it: the hash must cover exactly
    /// `offset` bytes, and the reopened file must hold exactly `offset` bytes with the modification
    /// time `written` recorded when the job stopped. Otherwise it throws `validationFailed` and the
    /// caller takes the verified path (``init(resuming:in:keeping:chunkSize:)``).
    public init(
        continuing name: String, in directory: DestinationDirectory, at offset: Int64, hashState: ContentDigest,
        written: FileStatus, chunkSize: Int = CopyOptions.defaultChunkSize
    ) throws(TransferError) {
        let partial = Self.partialName(for: name)
        let path = directory.path(of: partial)
        let fileSystem = directory.fileSystem
        guard hashState.byteCount == offset, written.size == offset else {
            throw TransferError.validationFailed(
                path: path, detail: "the kept hash covers \(hashState.byteCount) bytes, not the offset \(offset)")
        }
        let descriptor = try Self.reopen(partial, in: directory)
        let onDisk: FileStatus
        do {
            onDisk = try fileSystem.status(descriptor)
        } catch {
            fileSystem.close(descriptor)
            throw TransferError.io(operation: "inspect", path: path, reason: error)
        }
        guard onDisk.sameContent(as: written) else {
            fileSystem.close(descriptor)
            throw TransferError.validationFailed(
                path: path,
                detail: "changed while paused: \(onDisk.size) bytes modified at \(onDisk.modifiedNanoseconds) ns, "
                    + "the copy left \(written.size) bytes modified at \(written.modifiedNanoseconds) ns")
        }
        self.destination = directory
        self.name = name
        self.place = .named(partial)
        self.fileSystem = fileSystem
        self.writes = QueuedWrites(descriptor: descriptor, path: path, fileSystem: fileSystem)
        self.hasher = PipelinedHasher(chunkSize: chunkSize, hasher: hashState, writes: writes)
        self.descriptor = descriptor
        self.offset = offset
        self.durableOffset = offset
    }

    /// Opens the existing partial `partial` (a name's ``partialName(for:)``) for writing: a private regular file,
    /// or an error.
    private static func reopen(_ partial: String, in directory: DestinationDirectory) throws(TransferError) -> Int32 {
        guard let descriptor = try directory.openExisting(partial, flags: O_RDWR, writable: true) else {
            throw TransferError.io(operation: "reopen", path: directory.path(of: partial), reason: .noSuchFile)
        }
        return descriptor
    }

    /// Cuts the partial to `offset` bytes and feeds those bytes to the hasher.
    private static func keepPrefix(
        _ offset: Int64, of descriptor: Int32, path: String, hashingInto hasher: PipelinedHasher,
        fileSystem: FileSystem, proceed: (Int64) -> Bool
    ) throws(TransferError) -> Bool {
        let existing: Int64
        do {
            existing = try fileSystem.status(descriptor).size
        } catch {
            throw TransferError.io(operation: "inspect", path: path, reason: error)
        }
        guard existing >= offset else {
            throw TransferError.validationFailed(
                path: path, detail: "holds \(existing) bytes, fewer than the checkpoint's \(offset)")
        }
        do {
            try fileSystem.truncate(descriptor, offset)
        } catch {
            throw TransferError.io(operation: "truncate", path: path, reason: error)
        }
        let fed: Int64
        do {
            guard
                let hashed = try hasher.feedContent(
                    of: descriptor, length: offset, fileSystem: fileSystem, proceed: proceed)
            else { return false }
            fed = hashed
        } catch {
            throw TransferError.io(operation: "read", path: path, reason: error)
        }
        guard fed == offset else {
            throw TransferError.validationFailed(path: path, detail: "ended at \(fed)")
        }
        return true
    }

    deinit {
        if descriptor >= 0 {
            try? writes.drain()
            closeDescriptor()
        }
    }

    /// Closes the file's descriptor (and with it a file with no name, through its ``UnnamedFile``).
    private func closeDescriptor() {
        switch place {
        case .named: fileSystem.close(descriptor)
        case .unnamed(let file): file.close()
        }
    }

    /// The buffer size `write(filling:)` lends out.
    public var chunkSize: Int { hasher.chunkSize }

    /// The ``ContentDigest`` of the partial's content so far.
    public var digest: SHA256Digest { hasher.digest }

    /// The running hash state of the partial's content so far.
    var hashState: ContentDigest { hasher.state }

    /// Appends `bytes` to the partial.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(TransferError) {
        var done = 0
        while done < bytes.count {
            let piece = min(chunkSize, bytes.count - done)
            _ = try write { buffer in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[done..<done + piece]))
                return piece
            }
            done += piece
        }
    }

    /// Appends `bytes` to the partial.
    public mutating func write(contentsOf bytes: [UInt8]) throws(TransferError) {
        let result: Result<Void, TransferError> = bytes.withUnsafeBytes { raw in
            do throws(TransferError) {
                try write(raw)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Lends a buffer of `chunkSize` bytes to `fill` (e.g. a read from the source), then appends the
    /// bytes it reports: the buffer is written (in the background after ``writeInBackground()``), then
    /// hashed, without a copy. Returns the count. Throws the failure of this write, or of an earlier one
    /// that failed in the background meanwhile.
    public mutating func write(
        filling fill: (UnsafeMutableRawBufferPointer) throws(TransferError) -> Int
    ) throws(TransferError) -> Int {
        try writes.check()
        let count = try hasher.fill(at: offset, fill)
        try writes.check()
        offset += Int64(count)
        return count
    }

    /// From now on, each write is made in the background while the caller reads the next chunk, so the
    /// device never waits for a read or a hash (``QueuedWrites``). For a large file: a small one's
    /// single chunk gains nothing from the hand-over.
    public mutating func writeInBackground() {
        writes.writeInBackground()
    }

    /// From now on, writes whole aligned chunks straight to storage (``DirectWrites``), bypassing the page
    /// cache, where the file system can. A piece that is not whole blocks (the end of the file) or that
    /// the file system refuses that way, and every piece after it, goes through the cache as before.
    /// What ends in the partial is the same either way. The copy holds the process's one slot for it
    /// (``DirectWriteSlots``), so its hashes take every core (``PipelinedHasher/widen(to:)``), whether or not the file
    /// system takes direct writes.
    public mutating func writeDirectly() {
        hasher.widen(to: HashLanes.defaultCount)
        if writes.writeDirectly() {
            hasher.deepen(to: Self.directRingDepth)
        }
    }

    /// Runs `body` in the background once every write handed in so far has been made, unless one of them
    /// failed (a checkpoint's `fsync` queued here covers them all, and is never made after a gap).
    func afterWrites(_ body: @escaping @Sendable () -> Void) {
        writes.afterSuccess(body)
    }

    /// Waits for every write handed in so far; throws the first that failed.
    func finishWrites() throws(TransferError) {
        try writes.drain()
    }

    /// Appends `count` zero bytes as a hole: the file is extended (`ftruncate`) without writing them, so
    /// it stays sparse where the source is; the digest takes the zeros as a count, never as bytes, so a
    /// hole costs the same whatever its length. Returns `count`.
    mutating func writeHole(count: Int) throws(TransferError) -> Int {
        guard count > 0 else { return 0 }
        // Only ever extends the file, so the writes still queued below `offset` land the same either side of it.
        do throws(Errno) {
            try fileSystem.truncate(descriptor, offset + Int64(count))
        } catch {
            throw TransferError.writing(partialPath, operation: "extend", error)
        }
        hasher.fillZeros(count: Int64(count))
        offset += Int64(count)
        return count
    }

    /// The partial's descriptor, for a ``Checkpointer`` to duplicate while this file is open (it never
    /// reopens the partial by name).
    var partialDescriptor: Int32 { descriptor }

    /// Makes everything written so far durable (fsync); afterwards `durableOffset == offset`.
    public mutating func sync() throws(TransferError) {
        try writes.drain()
        do {
            try fileSystem.sync(descriptor)
        } catch {
            throw TransferError.writing(partialPath, operation: "sync", error)
        }
        durableOffset = offset
    }

    /// Completes the file: gives it the metadata of `source` (owner as root, the extended attributes of the
    /// open file `attributesFrom` when given, mode, times), syncs it, checks its size and SHA-256 against the
    /// source's, runs `beforeRename` (the journal's commit record), renames it atomically onto the final name
    /// and syncs the directory. Extended attributes that cannot be set are told to `attributesNotCopied` (a
    /// warning: the bytes and the rest are the source's).
    ///
    /// A size or digest mismatch removes the partial (its bytes are not the source's) and throws
    /// `validationFailed`; a failing system call keeps the partial for a retry and throws its reason.
    public consuming func commit(
        expectedSize: Int64, expectedDigest: SHA256Digest, metadataOf source: FileStatus? = nil,
        attributesFrom: Int32? = nil, attributesNotCopied: (Errno) -> Void = { _ in },
        beforeRename: () throws(TransferError) -> Void = {}
    ) throws(TransferError) -> CommittedFile {
        let sealed = try seal(
            expectedSize: expectedSize, expectedDigest: expectedDigest, metadataOf: source,
            attributesFrom: attributesFrom, attributesNotCopied: attributesNotCopied, sync: true)
        try beforeRename()
        try sealed.rename()
        try sealed.destination.sync()
        return sealed.committed
    }

    /// The first half of
    /// ``commit(expectedSize:expectedDigest:metadataOf:attributesFrom:attributesNotCopied:beforeRename:)``:
    /// gives the partial the metadata of `source` (and the extended attributes of `attributesFrom`), syncs it
    /// when `sync` is true (otherwise its durability is left to a sync of the whole file system,
    /// ``CopyJournal/commitTogether(_:then:)``), closes it and checks its size and SHA-256 against the source's; what
    /// is left is to journal the commitment and rename it.
    ///
    /// A size or digest mismatch removes the partial and throws `validationFailed`; a failing system call
    /// keeps the partial for a retry and throws its reason.
    ///
    /// `intention` is what the commitment of a file no record announced yet carries (``SealedPartial/intention``).
    package consuming func seal(
        expectedSize: Int64, expectedDigest: SHA256Digest, metadataOf source: FileStatus?,
        attributesFrom: Int32? = nil, attributesNotCopied: (Errno) -> Void = { _ in }, sync: Bool,
        intention: JournalRecord.Intention? = nil
    ) throws(TransferError) -> SealedPartial {
        // The times set below must come after the last write. (The partial's path is made only for an error.)
        try writes.drain()
        // Read before its metadata is set, which changes neither its size nor its identity: an owner and group it
        // was created with are then not given again.
        let written: FileStatus
        do {
            written = try fileSystem.status(descriptor)
        } catch {
            throw TransferError.io(operation: "inspect", path: partialPath, reason: error)
        }
        if let source {
            // Only now, with every byte written, does the partial (created 0600) get the source's mode.
            do {
                if let failure = try fileSystem.copyMetadata(
                    to: descriptor, from: source, attributesFrom: attributesFrom, current: written)
                {
                    attributesNotCopied(failure)
                }
            } catch {
                throw TransferError.io(operation: "set the mode and times of", path: partialPath, reason: error)
            }
        }
        if sync { try self.sync() }
        let size = written.size
        let digest = self.digest
        // A file with no name stays open until it is named: closed, it would be gone.
        let partial: SealedPartial.Partial
        switch place {
        case .named(let partialName):
            partial = .named(partialName, identity: written.identity)
            fileSystem.close(descriptor)
        case .unnamed(let file):
            partial = .unnamed(file)
        }
        descriptor = -1
        guard size == expectedSize, offset == expectedSize else {
            partial.remove(from: destination)
            throw TransferError.validationFailed(
                path: partialPath, detail: "holds \(size) bytes, the source has \(expectedSize)")
        }
        guard digest == expectedDigest else {
            partial.remove(from: destination)
            throw TransferError.validationFailed(
                path: partialPath, detail: "SHA-256 \(digest) differs from the source's \(expectedDigest)")
        }
        return SealedPartial(
            destination: destination, name: name, partial: partial, size: size, digest: digest, intention: intention)
    }

    /// Abandons the file: closes it and removes the partial, unless the name now leads to another file (a file
    /// with no name is gone once closed).
    public consuming func discard() {
        try? writes.drain()
        let held = partialName == nil ? nil : try? fileSystem.status(descriptor)
        closeDescriptor()
        descriptor = -1
        if let partialName, let held {
            _ = try? destination.remove(partialName, ifItIs: held.identity)
        }
    }

    /// Stops writing but keeps the partial on disk for a later `init(resuming:)`; returns its durable size (0 for
    /// a file with no name, which is gone once closed).
    public consuming func close() -> Int64 {
        try? writes.drain()
        closeDescriptor()
        descriptor = -1
        return partialName == nil ? 0 : durableOffset
    }
}

/// A partial whose bytes and metadata are complete and checked against the source, closed, not yet under its
/// final name (``StagedFile/seal(expectedSize:expectedDigest:metadataOf:attributesFrom:attributesNotCopied:sync:)``).
package struct SealedPartial: Sendable {
    /// The directory that holds the partial and the final name.
    package let destination: DestinationDirectory
    /// The final name.
    package let name: String
    /// The partial itself.
    package let partial: Partial
    /// Its size and SHA-256, which are the source's.
    package let size: Int64
    package let digest: SHA256Digest
    /// The intention of a file no record announced yet (a file with no name), which its commitment carries
    /// (``JournalRecord/committingFresh(name:intention:size:digest:)``); nil when an intent record came first.
    package var intention: JournalRecord.Intention?

    /// Where a sealed partial's bytes are.
    package enum Partial: Sendable {
        /// Under its name (a hash of the final name, computed once), the file `identity`, so that only it is
        /// renamed (never what another run put under its name).
        case named(String, identity: FileIdentity)
        /// In a file with no name, still open.
        case unnamed(UnnamedFile)

        /// Removes the partial: a named one unless its name now leads to another file; an unnamed one is closed.
        func remove(from destination: DestinationDirectory) {
            switch self {
            case .named(let name, let identity): _ = try? destination.remove(name, ifItIs: identity)
            case .unnamed(let file): file.close()
            }
        }
    }

    /// What the final name holds once renamed.
    package var committed: CommittedFile {
        CommittedFile(path: destination.path(of: name), size: size, digest: digest)
    }

    /// The journal's record that the partial is about to be renamed, and the one that it was.
    package var commitment: JournalRecord {
        .commitment(name: name, size: size, digest: digest, intention: intention)
    }
    package var completion: JournalRecord { .completed(name: name, size: size, digest: digest) }

    /// The partial's path; for a file with no name, the path it gets.
    package var partialPath: String {
        switch partial {
        case .named(let partialName, _): destination.path(of: partialName)
        case .unnamed: destination.path(of: name)
        }
    }

    /// Puts the partial under its final name, atomically: renames a named partial if its name still leads to
    /// this file; names a file with no name, refusing an entry that appeared under the final name meanwhile.
    package func rename() throws(TransferError) {
        switch partial {
        case .named(let partialName, let identity):
            try destination.rename(partialName, to: name, ifItIs: identity)
        case .unnamed(let file):
            defer { file.close() }
            try destination.link(unnamed: file.descriptor, as: name)
        }
    }
}

/// An open file with no name (``DestinationDirectory/createUnnamed(within:)``) from its creation to its naming, counted
/// in its budget: closed once, by whichever comes first of ``close()`` and the last reference going away (a commit
/// dropped unnamed).
package final class UnnamedFile: Sendable {
    /// The open file.
    let descriptor: Int32
    private let fileSystem: FileSystem
    private let budget: UnnamedFiles.Budget
    private let closed = Atomic(false)

    init(_ descriptor: Int32, closedBy fileSystem: FileSystem, countedIn budget: UnnamedFiles.Budget) {
        self.descriptor = descriptor
        self.fileSystem = fileSystem
        self.budget = budget
    }

    /// Closes the file, and with it the file itself unless it was named, no longer counted in its budget; only the
    /// first call does anything.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        fileSystem.close(descriptor)
        budget.release()
    }

    deinit { close() }
}
