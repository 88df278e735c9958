import Dispatch
import StateMachineKit
import Support

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The append-only journal of the copies into one directory, `.statetui-journal`.
///
/// Each line is `CHECKSUM JSON`: the first 16 hex digits of the JSON's SHA-256, a space, and one
/// `JournalRecord`. A record the next step relies on is fsynced before that step starts (write-ahead), so a
/// torn or missing last line only loses a step that had not happened yet. An intention and a completion
/// are written and not waited for (``JournalRecord/isWriteAhead`` says why each is safe); the next sync
/// of the journal (any copy's) makes them durable with it, so a tree copy waits for one sync a file, shared
/// with the copies committing at the same time (for small files, the `syncfs` of their batch,
/// ``commitTogether(_:then:)``). Opening the journal replays
/// it into one `JournalEntry` per final name and reports any line it cannot trust as a `JournalProblem`;
/// the transfer such a line concerns restarts from nothing.
public final class CopyJournal: Sendable {
    /// The journal's file name inside the destination directory.
    public static let fileName = ".statetui-journal"

    /// The journal's path.
    public let path: String
    /// The destination directory that holds the journal, held open; the copies into it use it too.
    public let directory: DestinationDirectory
    /// The lines that were corrupt or truncated when the journal was opened.
    public let problems: [JournalProblem]

    private let fileSystem: FileSystem
    /// The journal file, open for appending and locked, for as long as this object lives.
    private let descriptor: Int32
    /// The entries, by final name.
    private let state: JournalEntries
    /// Held while one copy writes its line and takes its ticket, so lines never interleave. A semaphore,
    /// not a lock of ``Locked``'s kind: it is held across a `write`, and dozens of copies appending at
    /// once spun on a `Mutex` for a sixth of a tree copy's CPU time; here they sleep.
    private let writing = DispatchSemaphore(value: 1)
    /// The journal's fsyncs, shared by the copies appending at the same time.
    private let syncs = SyncGroup()
    /// Whether the journal's name in its directory is durable: it was there when the journal was opened, or a sync
    /// of the directory (``makeNameDurable()``) or of the file system (a batch's `syncfs`) made it so. A new journal's
    /// name is made durable only before the first record that a later step relies on, not when the file is created:
    /// a tree copy opens a journal in each directory it makes, and the `fsync` of each new directory, made by the
    /// thread that walks the tree and starts the copies, held that thread a device round trip a directory (a tree
    /// of 1,000 directories of 10 empty files: 1,000 of the 2,002 `fsync`s that kept it waiting 0.51 s of 1.05 s).
    private let nameSync: SleepingLock<Bool>
    /// The batches of commits and the syncs of the file system they make, shared with the journals given the same
    /// (``commitTogether(_:then:)``).
    package let fileSystemSyncs: FileSystemSyncs

    /// What opening a journal does when another process holds its lock (copies into the same directory).
    public enum WhenBusy {
        /// Waits until the other process is done; `announce` is told the journal's path and the other
        /// process's pid (nil if unknown) first.
        case wait(announce: (_ journal: String, _ holder: Int32?) -> Void)
        /// Refuses at once with ``TransferError/destinationBusy(path:holder:)``.
        case refuse
    }

    /// Opens (or creates) the journal in the directory at `directory` and replays it.
    public convenience init(
        directory: String, whenBusy: WhenBusy = .wait(announce: { _, _ in }), fileSystem: FileSystem = .posix
    ) throws(TransferError) {
        try self.init(directory: try DestinationDirectory(path: directory, fileSystem: fileSystem), whenBusy: whenBusy)
    }

    /// Opens (or creates) the journal in `directory`, takes its write lock and replays it, reading it in
    /// windows of 64 KiB (see ``JournalReader`` for the bounds). The journal must be a regular file with
    /// no other hard link: a symbolic link, FIFO or hard link planted under its name is refused, never
    /// followed.
    ///
    /// The lock makes this process the directory's only writer until the journal is released: another
    /// `statetui copy` into the same directory waits (or, with `.refuse`, fails), so no run ever touches
    /// the partials or the journal of another. The lock is taken before the journal is read, and the
    /// journal is opened again when its name no longer leads to the locked file (the holder removed it
    /// when it finished), so a waiting run never writes into a journal that is gone.
    public convenience init(directory: DestinationDirectory, whenBusy: WhenBusy = .wait(announce: { _, _ in }))
        throws(TransferError)
    {
        try self.init(directory: directory, whenBusy: whenBusy, fileSystemSyncs: FileSystemSyncs())
    }

    /// ``init(directory:whenBusy:)``, the `syncfs` of its batches of commits shared through `fileSystemSyncs` with
    /// the other journals given the same (the journals of one run in directories on one file system).
    package init(directory: DestinationDirectory, whenBusy: WhenBusy, fileSystemSyncs: FileSystemSyncs)
        throws(TransferError)
    {
        self.fileSystemSyncs = fileSystemSyncs
        let path = directory.path(of: Self.fileName)
        self.path = path
        self.directory = directory
        let fileSystem = directory.fileSystem
        self.fileSystem = fileSystem
        let (descriptor, existed) = try Self.openLocked(in: directory, whenBusy: whenBusy)
        let replay: (entries: [String: JournalEntry], problems: [JournalProblem])
        do throws(TransferError) {
            do throws(Errno) {
                let reader = try Self.read(
                    descriptor, fileSystem: fileSystem, maximumNames: Self.maximumNames(in: directory))
                replay = reader.finish()
                if !reader.endsAtLineBoundary {
                    // Start the next record on a line of its own, after the torn one.
                    try fileSystem.appendAll(descriptor, [UInt8(ascii: "\n")])
                    try fileSystem.sync(descriptor)
                }
            } catch {
                throw TransferError.writing(path, operation: "prepare journal", error)
            }
        } catch {
            fileSystem.close(descriptor)
            throw error
        }
        self.problems = replay.problems
        self.descriptor = descriptor
        self.state = JournalEntries(replay.entries)
        nameSync = SleepingLock(existed)
    }

    /// Opens or creates the journal and takes its lock; returns the descriptor and whether the file existed.
    private static func openLocked(
        in directory: DestinationDirectory, whenBusy: WhenBusy
    ) throws(TransferError) -> (descriptor: Int32, existed: Bool) {
        let fileSystem = directory.fileSystem
        let path = directory.path(of: fileName)
        // Each turn ends with the lock on the file the name leads to, or starts again because the name
        // moved on meanwhile (removed by the run that held it, or created by another run first).
        for _ in 0..<100 {
            var existed = true
            var opened = try directory.openExisting(fileName, flags: O_RDWR | O_APPEND, writable: true)
            if opened == nil {
                existed = false
                do {
                    opened = try directory.create(fileName, flags: O_RDWR | O_APPEND, replacing: false)
                } catch .unsafeEntry {
                    continue
                }
            }
            guard let descriptor = opened else {
                preconditionFailure("Internal inconsistency: the journal is neither opened nor created")
            }
            do throws(TransferError) {
                try lock(descriptor, path: path, whenBusy: whenBusy, fileSystem: fileSystem)
                let held: FileStatus
                do {
                    held = try fileSystem.status(descriptor)
                } catch {
                    throw TransferError.io(operation: "inspect", path: path, reason: error)
                }
                if try directory.status(of: fileName)?.identity == held.identity {
                    return (descriptor, existed)
                }
            } catch {
                fileSystem.close(descriptor)
                throw error
            }
            fileSystem.close(descriptor)
        }
        throw .unsafeEntry(path: path, detail: "its name keeps leading to another file")
    }

    /// Takes the journal's write lock, waiting for it (after announcing the holder) or refusing.
    private static func lock(
        _ descriptor: Int32, path: String, whenBusy: WhenBusy, fileSystem: FileSystem
    ) throws(TransferError) {
        do {
            try fileSystem.lock(descriptor, false)
            return
        } catch .init(rawValue: EAGAIN), .init(rawValue: EACCES) {
            // Held by another process: wait or refuse below.
        } catch {
            throw .io(operation: "lock", path: path, reason: error)
        }
        let holder = (try? fileSystem.lockHolder(descriptor)) ?? nil
        switch whenBusy {
        case .refuse:
            throw .destinationBusy(path: path, holder: holder)
        case .wait(let announce):
            announce(path, holder)
            do {
                try fileSystem.lock(descriptor, true)
            } catch {
                throw .io(operation: "lock", path: path, reason: error)
            }
        }
    }

    deinit {
        fileSystem.close(descriptor)
    }

    /// What the journal knows about `name`, or nil if it never saw it.
    public func entry(named name: String) -> JournalEntry? {
        state.withEntries(of: name) { $0.entry(named: name) }
    }

    /// Every entry, by final name.
    public var entries: [String: JournalEntry] {
        state.all
    }

    /// The entries the shards' tables of whole entries have room for, together (a test's view of what the journal
    /// holds once its entries are condensed or forgotten).
    package var wholeEntryCapacity: Int {
        state.wholeEntryCapacity
    }

    /// Returns once no copy is writing a line: every line written before the call has its ticket.
    func waitForWriters() {
        writing.wait()
        writing.signal()
    }

    /// Lets go of what the journal holds in memory about `name` once its transfer completed or was cancelled,
    /// for a caller that will not run that transfer again (the headless copy lets each transfer go once it
    /// settled), so a directory of a million files does not keep a million entries. The file keeps its
    /// records; ``removeIfSettled()`` still removes it only when every entry left is settled. Returns whether an
    /// entry of `name` is still kept: one not settled (a failed transfer's, which the journal keeps for a rerun).
    @discardableResult
    public func forgetSettled(named name: String) -> Bool {
        state.withEntries(of: name) { $0.forgetSettled(name) }
    }

    /// Keeps of `name`'s entry, once its transfer completed, only the size and digest of the file it wrote, for
    /// a caller that may run the transfer again but lets it go meanwhile (the copy dashboard's completed rows): the
    /// whole entry, its source's path and status among it, kept each completed row about 300 bytes larger (1,700
    /// against 1,400 in `make bench`). The entry then reads as completed with that size and digest, owned by this
    /// journal, its `request` and `source` empty and its `sourceStatus` nil: a later run of the name plans against
    /// the destination (skipping a file of the source's size and time, replacing one this journal wrote that
    /// differs), never from the source this entry no longer names. Nothing changes for an entry that is not
    /// completed, nor in the file.
    public func condenseCompleted(named name: String) {
        state.withEntries(of: name) { $0.condense(name) }
    }

    /// Removes the journal file when every transfer it records completed or was cancelled (nothing is
    /// left to recover); returns whether it did. The directory entry is removed, never followed, and, with
    /// `syncing`, the removal made durable, when the journal's name was (``nameIsDurable``); a later append goes
    /// to the unlinked file and is lost, as nothing needs it.
    ///
    /// Without `syncing`, the caller makes the removal durable later, with a sync of the whole file system (a tree
    /// copy removes a journal from each directory it finished, and syncs once at its end). Until then a crash may
    /// bring the journal back, as one that crash left just before the removal: every transfer it records settled,
    /// which the next run reads as such and removes it.
    @discardableResult
    public func removeIfSettled(syncing: Bool = true) throws(TransferError) -> Bool {
        let directory = self.directory
        let fileSystem = self.fileSystem
        let path = self.path
        let descriptor = self.descriptor
        return try state.withEveryEntry { entries throws(TransferError) in
            guard entries.allSatisfy(\.isSettled) else { return false }
            // Only the file this run holds locked: a journal under the name that is not it belongs to
            // another run.
            let held: FileStatus
            do throws(Errno) {
                held = try fileSystem.status(descriptor)
            } catch {
                throw TransferError.io(operation: "inspect", path: path, reason: error)
            }
            guard try directory.status(of: Self.fileName)?.identity == held.identity else { return false }
            try directory.remove(Self.fileName)
            if syncing, nameIsDurable { try directory.sync() }
            return true
        }
    }

    /// Appends one record and, when the step after it relies on it (``JournalRecord/isWriteAhead``), syncs
    /// the journal before returning; any other record is written and not waited for.
    ///
    /// Copies appending at the same time share their fsyncs (``SyncGroup``): each returns once an fsync
    /// that began after its line was written has returned. The entry changes only then.
    public func append(_ record: JournalRecord) throws(TransferError) {
        try append([record])
    }

    /// Appends `records` in one write, then as ``append(_:)`` does for one: synced when any of them is
    /// write-ahead, their entries changed after that.
    func append(_ records: [JournalRecord]) throws(TransferError) {
        let ticket = try write(records)
        if records.contains(where: \.isWriteAhead) {
            let (fileSystem, descriptor) = (self.fileSystem, self.descriptor)
            do {
                try syncs.sync(through: ticket) { () throws(Errno) in try fileSystem.sync(descriptor) }
            } catch {
                throw TransferError.writing(path, operation: "append to", error)
            }
            // The record is durable in the file; the file is found after a crash once its name is durable too.
            try makeNameDurable()
        }
        noteAppended(records)
    }

    /// Makes the journal's name in its directory durable, once (``nameSync``): the directory is synced by the
    /// first caller that finds it is not, while any other waits for that sync.
    private func makeNameDurable() throws(TransferError) {
        let directory = self.directory
        try nameSync.withLock { durable throws(TransferError) in
            guard !durable else { return }
            try directory.sync()
            durable = true
        }
    }

    /// Notes that the journal's name is durable: a sync of the whole file system made it so.
    func noteNameDurable() {
        nameSync.withLock { $0 = true }
    }

    /// Whether the journal's name in its directory is known durable (``nameSync``): until then, nothing a later run
    /// would read from the journal is durable, and neither its creation nor its removal needs a sync.
    package var nameIsDurable: Bool {
        nameSync.withLock { $0 }
    }

    /// Writes the lines of `records` in one write, not synced; returns the ticket of the journal's sync group that
    /// stands for them. Their entries change only once the caller made them durable (``noteAppended(_:)``):
    /// ``commitTogether(_:then:)`` writes a batch's commitment records before the one `syncfs` that makes them
    /// durable with the batch's partials.
    @discardableResult
    func write(_ records: [JournalRecord]) throws(TransferError) -> UInt64 {
        var lines: [UInt8] = []
        lines.reserveCapacity(records.count * Self.typicalLineCapacity)
        for record in records { Self.appendLine(for: record, to: &lines) }
        writing.wait()
        defer { writing.signal() }
        do throws(Errno) {
            try fileSystem.appendAll(descriptor, lines)
        } catch {
            throw TransferError.writing(path, operation: "append to", error)
        }
        // Taken while the line's writer is the only one: whoever writes next finds its ticket taken.
        return syncs.ticket()
    }

    /// Applies appended `records`, durable when they had to be, to their entries.
    func noteAppended(_ records: [JournalRecord]) {
        for record in records { noteAppended(record) }
    }

    /// Applies an appended `record` to its entry.
    private func noteAppended(_ record: JournalRecord) {
        state.withEntries(of: record.name) { $0.apply(record) }
    }

    /// The bytes of one journal line for `record`, newline included.
    public static func line(for record: JournalRecord) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(typicalLineCapacity)
        appendLine(for: record, to: &line)
        return line
    }

    /// The room reserved for a line: its checksum, the space after it, a typical record's JSON and the newline.
    static let typicalLineCapacity = checksumDigits + 2 + JournalRecord.typicalJSONCapacity

    /// Appends ``line(for:)``'s bytes to `bytes`: the JSON is written in place, after room for the checksum, which
    /// is filled in once the JSON is there. A batch's lines go into one buffer, each written where it is sent from
    /// (an array for each line, joined into another, was two of a tree copy's allocations and copies a file).
    static func appendLine(for record: JournalRecord, to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.appendRoom(checksumDigits)
        bytes.append(UInt8(ascii: " "))
        record.appendJSON(to: &bytes)
        bytes.withUnsafeMutableBufferPointer { bytes in
            writeChecksum(
                of: UnsafeRawBufferPointer(
                    UnsafeMutableBufferPointer(rebasing: bytes[(start + checksumDigits + 1)...])),
                into: UnsafeMutableBufferPointer(rebasing: bytes[start..<(start + checksumDigits)]))
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Replays journal content into entries and problems; pure, so it is tested (and fuzzed) without
    /// files. The same as feeding `content` to a ``JournalReader`` in one piece.
    public static func replay(_ content: [UInt8]) -> (entries: [String: JournalEntry], problems: [JournalProblem]) {
        var reader = JournalReader()
        reader.consume(content)
        return reader.finish()
    }

    /// The first 16 hexadecimal digits of the SHA-256 of a record's JSON.
    static func checksum(of json: [UInt8]) -> String {
        json.withUnsafeBytes { json in
            String(unsafeUninitializedCapacity: checksumDigits) { digits in
                writeChecksum(of: json, into: digits)
                return checksumDigits
            }
        }
    }

    /// Writes ``checksum(of:)``'s ``checksumDigits`` digits at the start of `digits`: the one spelling of a line's
    /// checksum, which a line is written with (in place, before its JSON) and the reader compares against.
    static func writeChecksum(of json: UnsafeRawBufferPointer, into digits: UnsafeMutableBufferPointer<UInt8>) {
        SHA256.hash(json).writeHex(leading: checksumDigits / 2, into: digits)
    }

    /// How many hexadecimal digits a line's checksum has.
    static let checksumDigits = 16

    /// The names beyond the directory's entries a journal may hold: transfers cancelled or failed before
    /// they left a file.
    static let nameMargin = 65_536

    /// The most names a journal of `directory` can hold: one per entry there now (a file this copy wrote,
    /// or its partial) plus ``nameMargin``. A journal naming more is forged or another directory's.
    private static func maximumNames(in directory: DestinationDirectory) throws(Errno) -> Int {
        try directory.fileSystem.entriesAt(directory.descriptor, 1 << 24).count + nameMargin
    }

    /// Feeds the whole file to a reader through one 64 KiB window (also what `--dry-run` reads a journal with).
    static func read(_ descriptor: Int32, fileSystem: FileSystem, maximumNames: Int) throws(Errno)
        -> JournalReader
    {
        var reader = JournalReader(maximumNames: maximumNames)
        let window = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { window.deallocate() }
        var position: Int64 = 0
        while true {
            let count = try fileSystem.readFully(descriptor, into: window, at: position)
            if count == 0 { return reader }
            reader.consume(UnsafeRawBufferPointer(rebasing: window[..<count]))
            position += Int64(count)
        }
    }
}

/// A journal's entries, split by a hash of the name into shards of their own lock each: the copies of a
/// tree update entries several times a file, dozens at once, and on one lock they spun on each other
/// for a twelfth of the copy's CPU time.
private final class JournalEntries: Sendable {
    private final class Shard: Sendable {
        let entries: Locked<ShardEntries>
        init(_ entries: [String: JournalEntry]) { self.entries = Locked(ShardEntries(full: entries)) }
    }

    private static let shardCount = 16
    private let shards: [Shard]

    init(_ entries: [String: JournalEntry]) {
        var split = Array(repeating: [String: JournalEntry](), count: Self.shardCount)
        for (name, entry) in entries { split[Self.shard(of: name)][name] = entry }
        shards = split.map(Shard.init)
    }

    /// The shard of `name`: the FNV-1a hash of its bytes, cheaper than a seeded `Hasher` for one index.
    private static func shard(of name: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % UInt32(shardCount))
    }

    /// Runs `body` on the entries of the shard that holds `name`, under its lock.
    func withEntries<Result: Sendable>(of name: String, _ body: (inout ShardEntries) -> Result) -> Result {
        shards[Self.shard(of: name)].entries.withLock { body(&$0) }
    }

    /// The room of every shard's table of whole entries.
    var wholeEntryCapacity: Int {
        shards.reduce(0) { $0 + $1.entries.withLock { $0.full.capacity } }
    }

    /// Every entry, by final name.
    var all: [String: JournalEntry] {
        shards.reduce(into: [:]) { all, shard in
            all.merge(shard.entries.withLock { $0.all }) { first, _ in first }
        }
    }

    /// Runs `body` on every shard's entries with every shard's lock held (taken in order), so no entry
    /// changes while it runs.
    func withEveryEntry<Result: Sendable>(
        _ body: ([ShardEntries]) throws(TransferError) -> Result
    ) throws(TransferError) -> Result {
        try holding(from: 0, held: [], body)
    }

    private func holding<Result: Sendable>(
        from index: Int, held: [ShardEntries], _ body: ([ShardEntries]) throws(TransferError) -> Result
    ) throws(TransferError) -> Result {
        guard index < shards.count else { return try body(held) }
        return try shards[index].entries.withLock { entries throws(TransferError) in
            try holding(from: index + 1, held: held + [entries], body)
        }
    }
}

/// The entries of one shard of a journal: in full, or condensed once completed
/// (``CopyJournal/condenseCompleted(named:)``). A name is in one of the two at most.
private struct ShardEntries: Sendable {
    /// What a condensed entry keeps: the size and digest of the file its transfer wrote.
    struct Completed: Sendable {
        var size: Int64
        var digest: SHA256Digest
    }

    var full: [String: JournalEntry]
    var condensed: [String: Completed] = [:]

    /// `name`'s entry; a condensed one reads as completed, owned, with no request, source or source status.
    func entry(named name: String) -> JournalEntry? {
        if let entry = full[name] { return entry }
        // Most shards hold no condensed entry (only a dashboard condenses): the name is not hashed again for it.
        guard !condensed.isEmpty else { return nil }
        return condensed[name].map {
            JournalEntry(
                request: "", source: "", sourceStatus: nil, durableOffset: $0.size,
                status: .completed(size: $0.size, digest: $0.digest), ownedDigest: $0.digest)
        }
    }

    /// Every entry, condensed ones read as ``entry(named:)`` reads them.
    var all: [String: JournalEntry] {
        var all = full
        for name in condensed.keys { all[name] = entry(named: name) }
        return all
    }

    /// Whether every entry is settled (a condensed one is completed).
    var isSettled: Bool { full.values.allSatisfy(\.status.isSettled) }

    /// Applies `record`, appended, to its name's entry (a condensed one as it reads).
    mutating func apply(_ record: JournalRecord) {
        full[record.name] = JournalEntry.applying(record, to: entry(named: record.name))
        if !condensed.isEmpty { condensed[record.name] = nil }
    }

    /// Forgets `name`'s entry when it is settled; returns whether an entry of `name` is still kept (one not
    /// settled). The name is looked up once.
    mutating func forgetSettled(_ name: String) -> Bool {
        if !condensed.isEmpty { condensed[name] = nil }
        guard let index = full.index(forKey: name) else { return false }
        guard full.values[index].status.isSettled else { return true }
        removeFull(at: index)
        return false
    }

    /// Condenses `name`'s entry when it is completed.
    mutating func condense(_ name: String) {
        guard let index = full.index(forKey: name), case .completed(let size, let digest) = full.values[index].status
        else { return }
        removeFull(at: index)
        condensed[name] = Completed(size: size, digest: digest)
    }

    /// Removes the whole entry at `index`, and gives the table's room back once a quarter of it is used, and all of
    /// it once it is empty: a dictionary keeps its capacity as entries go, and a shard that once held every file of
    /// a tree being copied kept room for them all (about 370 bytes a file) after each was forgotten or condensed.
    private mutating func removeFull(at index: [String: JournalEntry].Index) {
        full.remove(at: index)
        full.releaseRoomOnceSparse()
    }
}
