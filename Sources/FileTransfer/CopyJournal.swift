import Foundation

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
    /// The lines that were corrupt or truncated when the journal was opened.
    public let problems: [JournalProblem]

    private let fileSystem: FileSystem
    private let state: Locked<State>

    private struct State {
        var descriptor: Int32
        var entries: [String: JournalEntry]
    }

    /// Opens (or creates) the journal in `directory` and replays it.
    public init(directory: String, fileSystem: FileSystem = .posix) throws(TransferError) {
        let path = directory + "/" + Self.fileName
        self.path = path
        self.fileSystem = fileSystem
        let existed: Bool
        do {
            existed = try fileSystem.existingStatus(of: path) != nil
        } catch {
            throw TransferError.io(operation: "inspect", path: path, reason: error)
        }
        let descriptor: Int32
        do {
            descriptor = try fileSystem.open(path, O_RDWR | O_CREAT | O_APPEND, 0o644)
        } catch {
            throw TransferError.writing(path, operation: "open", error)
        }
        do throws(Errno) {
            let content = try Self.readAll(descriptor, fileSystem: fileSystem)
            let replay = Self.replay(content)
            self.problems = replay.problems
            if let last = content.last, last != UInt8(ascii: "\n") {
                // Start the next record on a line of its own, after the torn one.
                try fileSystem.appendAll(descriptor, [UInt8(ascii: "\n")])
                try fileSystem.sync(descriptor)
            }
            if !existed {
                try fileSystem.syncDirectory(directory)
            }
            self.state = Locked(State(descriptor: descriptor, entries: replay.entries))
        } catch {
            fileSystem.close(descriptor)
            throw TransferError.writing(path, operation: "prepare journal", error)
        }
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
        // Encoding a value made of strings, integers and digests cannot fail.
        let json = try! encoder.encode(record)
        return Array(checksum(of: Array(json)).utf8) + [UInt8(ascii: " ")] + Array(json) + [UInt8(ascii: "\n")]
    }

    /// Replays journal content into entries and problems; pure, so it is tested without files.
    public static func replay(_ content: [UInt8]) -> (entries: [String: JournalEntry], problems: [JournalProblem]) {
        var entries: [String: JournalEntry] = [:]
        var problems: [JournalProblem] = []
        let endsWithNewline = content.last == UInt8(ascii: "\n")
        let lines = content.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where !line.isEmpty {
            let isLast = index == lines.count - 1
            let problem: String?
            if isLast && !endsWithNewline {
                problem = "truncated line (no newline at its end)"
            } else {
                switch parse(Array(line)) {
                case .success(let record):
                    entries[record.name] = JournalEntry.applying(record, to: entries[record.name])
                    problem = nil
                case .failure(let reason):
                    problem = reason.message
                }
            }
            if let problem {
                let name = affectedName(in: Array(line))
                problems.append(JournalProblem(line: index + 1, reason: problem, name: name))
                if let name {
                    let previous = entries[name]
                    entries[name] = JournalEntry(
                        request: previous?.request ?? "", source: previous?.source ?? "",
                        sourceStatus: previous?.sourceStatus, durableOffset: 0, status: .damaged,
                        ownedDigest: previous?.ownedDigest)
                }
            }
        }
        return (entries, problems)
    }

    private struct LineError: Error {
        let message: String
    }

    private static func parse(_ line: [UInt8]) -> Result<JournalRecord, LineError> {
        guard line.count > 17, line[16] == UInt8(ascii: " ") else {
            return .failure(LineError(message: "not a checksummed record"))
        }
        let stored = String(decoding: line[..<16], as: UTF8.self)
        let json = Array(line[17...])
        guard stored == checksum(of: json) else {
            return .failure(LineError(message: "checksum mismatch"))
        }
        do {
            return .success(try JSONDecoder().decode(JournalRecord.self, from: Data(json)))
        } catch {
            return .failure(LineError(message: "unreadable record: \(error)"))
        }
    }

    private static func checksum(of json: [UInt8]) -> String {
        String(SHA256.hash(json).hex.prefix(16))
    }

    /// The `"name":"…"` value in a damaged line, if one survived.
    private static func affectedName(in line: [UInt8]) -> String? {
        let text = String(decoding: line, as: UTF8.self)
        guard let start = text.range(of: "\"name\":\"") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        let name = String(rest[..<end])
        return name.isEmpty ? nil : name
    }

    private static func readAll(_ descriptor: Int32, fileSystem: FileSystem) throws(Errno) -> [UInt8] {
        var content: [UInt8] = []
        while true {
            let piece = try fileSystem.read(descriptor, count: 64 << 10, at: Int64(content.count))
            if piece.isEmpty { return content }
            content.append(contentsOf: piece)
        }
    }
}
