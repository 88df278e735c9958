import Foundation
import Testing

@testable import FileTransfer

/// A journal line's JSON is written by hand; it must be, byte for byte, what `JSONEncoder` (sorted keys,
/// slashes unescaped) wrote into every journal before, and read back as the same record.
@Suite struct JournalRecordJSONTests {
    /// Every kind of record, each with `text` in each of its strings.
    static func records(with text: String) -> [JournalRecord] {
        let status = FileStatus(
            size: 1 << 40, modifiedNanoseconds: -1_700_000_000_123_456_789, isDirectory: false, isRegularFile: true)
        let digest = SHA256.hash(Array(text.utf8))
        return [
            .intent(name: text, request: text, source: "/src/" + text, sourceStatus: status, replaces: nil),
            .intent(name: text, request: "r", source: text, sourceStatus: status, replaces: digest),
            .checkpoint(name: text, offset: 0),
            .checkpoint(name: text, offset: Int64.max),
            .committing(name: text, size: 5, digest: digest),
            .committingFresh(
                name: text,
                intention: JournalRecord.Intention(request: text, source: "/src/" + text, sourceStatus: status),
                size: 0, digest: digest),
            .completed(name: text, size: Int64.min, digest: digest),
            .failed(name: text, reason: "cannot read \"\(text)\": Input/output error"),
            .cancelled(name: text),
        ]
    }

    /// Each ASCII character alone and among others (control characters, quotes, backslashes, slashes), and
    /// text beyond ASCII (combining marks, emoji, the private-use characters of names that are not UTF-8).
    static let texts: [String] =
        (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        + ["a/b\\c\"d\u{7F}e", "", "été", "e\u{301}", "🙂/🙂", "\u{F700}\u{F7FF}", "\u{2028}\u{2029}", "x\u{0}y"]

    @Test(arguments: texts)
    func writesWhatJSONEncoderWrote(text: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let records = Self.records(with: text)
        let encoded = try records.map { Array(try encoder.encode($0)) }
        #expect(records.map(\.json) == encoded)
        #expect(try records.map { try JSONDecoder().decode(JournalRecord.self, from: Data($0.json)) } == records)
    }
}
