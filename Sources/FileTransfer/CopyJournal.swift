import Foundation
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The append-only journal of the copies into one directory, `.statetui-journal`.
///
/// Each line is `CHECKSUM JSON`: the first 16 hex digits of the JSON's SHA-256, a space, and one
/// `JournalRecord`. Every append is fsynced before the effect it announces starts (write-ahead), so a
/// torn or missing last line only loses a step that had not happened yet. Opening the journal replays
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
    private let state: Locked<State>

    private struct State {
        var descriptor: Int32
        var entries: [String: JournalEntry]
    }

    /// Opens (or creates) the journal in the directory at `directory` and replays it.
    public convenience init(directory: String, fileSystem: FileSystem = .posix) throws(TransferError) {
        try self.init(directory: try DestinationDirectory(path: directory, fileSystem: fileSystem))
    }

    /// Opens (or creates) the journal in `directory` and replays it, reading it in windows of 64 KiB
    /// (see ``JournalReader`` for the bounds). The journal must be a regular file with no other hard
    /// link: a symbolic link, FIFO or hard link planted under its name is refused, never followed.
    public init(directory: DestinationDirectory) throws(TransferError) {
        let path = directory.path(of: Self.fileName)
        self.path = path
        self.directory = directory
        let fileSystem = directory.fileSystem
        self.fileSystem = fileSystem
        var existed = true
        var opened = try directory.openExisting(Self.fileName, flags: O_RDWR | O_APPEND, writable: true)
        if opened == nil {
            existed = false
            opened = try directory.create(Self.fileName, flags: O_RDWR | O_APPEND, replacing: false)
        }
        guard let descriptor = opened else {
            preconditionFailure("Internal inconsistency: the journal is neither opened nor created")
        }
        let replay: (entries: [String: JournalEntry], problems: [JournalProblem])
        do throws(TransferError) {
            do throws(Errno) {
                let reader = try Self.read(descriptor, fileSystem: fileSystem)
                replay = reader.finish()
                if !reader.endsAtLineBoundary {
                    // Start the next record on a line of its own, after the torn one.
                    try fileSystem.appendAll(descriptor, [UInt8(ascii: "\n")])
                    try fileSystem.sync(descriptor)
                }
            } catch {
                throw TransferError.writing(path, operation: "prepare journal", error)
            }
            if !existed {
                try directory.sync()
            }
        } catch {
            fileSystem.close(descriptor)
            throw error
        }
        self.problems = replay.problems
        self.state = Locked(State(descriptor: descriptor, entries: replay.entries))
    }

    deinit {
        let descriptor = state.withLock { $0.descriptor }
        fileSystem.close(descriptor)
    }

    /// What the journal knows about `name`, or nil if it never saw it.
    public func entry(named name: String) -> JournalEntry? {
        state.withLock { $0.entries[name] }
    }

    /// Every entry, by final name.
    public var entries: [String: JournalEntry] {
        state.withLock { $0.entries }
    }

    /// Removes the journal file when every transfer it records completed or was cancelled (nothing is
    /// left to recover); returns whether it did. The directory entry is removed, never followed, and the
    /// removal made durable; a later append goes to the unlinked file and is lost, as nothing needs it.
    @discardableResult
    public func removeIfSettled() throws(TransferError) -> Bool {
        let directory = self.directory
        return try state.withLock { state throws(TransferError) in
            let settled = state.entries.values.allSatisfy { entry in
                switch entry.status {
                case .completed, .cancelled: true
                case .inProgress, .committing, .failed, .damaged: false
                }
            }
            guard settled else { return false }
            try directory.remove(Self.fileName)
            try directory.sync()
            return true
        }
    }

    /// Appends one record and syncs the journal before returning.
    public func append(_ record: JournalRecord) throws(TransferError) {
        let line = Self.line(for: record)
        let path = self.path
        let fileSystem = self.fileSystem
        try state.withLock { state throws(TransferError) in
            do throws(Errno) {
                try fileSystem.appendAll(state.descriptor, line)
                try fileSystem.sync(state.descriptor)
            } catch {
                throw TransferError.writing(path, operation: "append to", error)
            }
            state.entries[record.name] = JournalEntry.applying(record, to: state.entries[record.name])
        }
    }

    /// The bytes of one journal line for `record`, newline included.
    public static func line(for record: JournalRecord) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let json = try? encoder.encode(record) else {
            preconditionFailure("Internal inconsistency: a record of strings, integers and digests did not encode")
        }
        return Array(checksum(of: Array(json)).utf8) + [UInt8(ascii: " ")] + Array(json) + [UInt8(ascii: "\n")]
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
        String(SHA256.hash(json).hex.prefix(16))
    }

    /// Feeds the whole file to a reader through one 64 KiB window.
    private static func read(_ descriptor: Int32, fileSystem: FileSystem) throws(Errno) -> JournalReader {
        var reader = JournalReader()
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
