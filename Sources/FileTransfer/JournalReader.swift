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

/// Replays the copy journal's bytes into entries and problems, fed in pieces of any size.
///
/// Pure (no file, no clock) so it is tested and fuzzed on bytes alone, and bounded: it holds at most
/// one line of ``maximumLineLength`` bytes (a longer line is skipped to its newline and reported), lists
/// at most ``maximumProblems`` problems (the rest are counted in one last problem), and keeps at most
/// `maximumNames` entries: a journal naming more files than its directory can have held is forged or not
/// this directory's, so the lines after the first name too many are counted in one problem, not read.
/// Reading is linear in the journal's size: newlines are found with `memchr` and runs of empty lines are
/// skipped byte by byte. Each problem quotes at most ``DisplayText/quoteLimit`` characters of the line.
public struct JournalReader: Sendable {
    /// The longest journal line read; a real record is a few hundred bytes (paths up to `PATH_MAX`).
    public static let maximumLineLength = 64 << 10
    /// The most problems listed one by one.
    public static let maximumProblems = 100

    /// What the journal knows about each final name so far.
    public private(set) var entries: [String: JournalEntry] = [:]
    private var problems: [JournalProblem] = []
    private var omittedProblems = 0
    /// The line being read (at most `maximumLineLength` bytes of it).
    private var line: [UInt8] = []
    /// The full length of the line being read, including what was not kept.
    private var lineLength = 0
    private var lineNumber = 1
    /// The most names the entries may hold.
    private let maximumNames: Int
    /// The line of the first record naming one file too many, once one was read; every line from there
    /// on is only counted.
    private var excessFrom: Int?

    /// A reader that has seen nothing and keeps at most `maximumNames` names.
    public init(maximumNames: Int = .max) {
        self.maximumNames = maximumNames
    }

    /// Reads the next bytes of the journal.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let newline = UInt8(ascii: "\n")
        var start = 0
        while start < bytes.count {
            if lineLength == 0 && bytes[start] == newline {
                // An empty line is nothing to read: a run of them only moves the line count.
                lineNumber += 1
                start += 1
                continue
            }
            guard let found = memchr(base + start, Int32(newline), bytes.count - start) else {
                keep(UnsafeRawBufferPointer(rebasing: bytes[start...]))
                return
            }
            let end = base.distance(to: UnsafeRawPointer(found))
            keep(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            endLine(terminated: true)
            start = end + 1
        }
    }

    /// Reads the next bytes of the journal.
    public mutating func consume(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { consume($0) }
    }

    /// True when the bytes read so far end at a line boundary (or there were none).
    var endsAtLineBoundary: Bool { lineLength == 0 }

    /// The entries and problems once every byte was read; a last line without its newline is a torn
    /// write and reported as truncated.
    public func finish() -> (entries: [String: JournalEntry], problems: [JournalProblem]) {
        var reader = self
        if reader.lineLength > 0 {
            reader.endLine(terminated: false)
        }
        var problems = reader.problems
        if let first = reader.excessFrom {
            problems.append(
                JournalProblem(
                    line: first,
                    reason: "names more than \(reader.maximumNames) files, more than this directory can have held: "
                        + "lines \(first) to \(reader.lineNumber - 1) are not read",
                    name: nil))
        }
        if reader.omittedProblems > 0 {
            problems.append(
                JournalProblem(
                    line: reader.lineNumber - 1,
                    reason: "and \(reader.omittedProblems) more damaged lines, not listed", name: nil))
        }
        return (reader.entries, problems)
    }

    private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
        lineLength += bytes.count
        guard excessFrom == nil else { return }
        let room = Self.maximumLineLength - line.count
        if room > 0 {
            line.append(contentsOf: bytes.prefix(room))
        }
    }

    private mutating func endLine(terminated: Bool) {
        defer {
            line.removeAll(keepingCapacity: line.count <= 4096)
            lineLength = 0
            lineNumber += 1
        }
        guard lineLength > 0, excessFrom == nil else { return }
        let problem: String?
        if !terminated {
            problem = "truncated line (no newline at its end)"
        } else if lineLength > Self.maximumLineLength {
            problem = "line of \(lineLength) bytes, longer than the limit of \(Self.maximumLineLength)"
        } else {
            switch Self.parse(line) {
            case .success(let record) where entries[record.name] == nil && entries.count >= maximumNames:
                excessFrom = lineNumber
                return
            case .success(let record):
                entries[record.name] = JournalEntry.applying(record, to: entries[record.name])
                problem = nil
            case .failure(let reason):
                problem = reason.message
            }
        }
        guard let problem else { return }
        let name = Self.affectedName(in: line)
        if problems.count < Self.maximumProblems {
            problems.append(JournalProblem(line: lineNumber, reason: problem, name: name))
        } else {
            omittedProblems += 1
        }
        if let name {
            let previous = entries[name]
            entries[name] = JournalEntry(
                request: previous?.request ?? "", source: previous?.source ?? "",
                sourceStatus: previous?.sourceStatus, durableOffset: 0, status: .damaged,
                ownedDigest: previous?.ownedDigest)
        }
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
        guard stored == CopyJournal.checksum(of: json) else {
            return .failure(LineError(message: "checksum mismatch"))
        }
        do {
            return .success(try JSONDecoder().decode(JournalRecord.self, from: Data(json)))
        } catch {
            return .failure(LineError(message: "unreadable record: \(error)"))
        }
    }

    /// The `"name":"…"` value in a damaged line, if one survived.
    private static func affectedName(in line: [UInt8]) -> String? {
        let text = String(decoding: line, as: UTF8.self)
        guard let start = text.firstRange(of: "\"name\":\"") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        let name = String(rest[..<end])
        return name.isEmpty ? nil : name
    }
}
