import Commands
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct LineReaderTests {
    /// A reader over `bytes` handed out `chunk` bytes at a time, as a pipe might deliver them.
    static func reader(_ bytes: [UInt8], chunk: Int, maximumLineLength: Int = 16) -> LineReader {
        var offset = 0
        return LineReader(maximumLineLength: maximumLineLength) { buffer in
            let count = min(chunk, buffer.count, bytes.count - offset)
            for index in 0..<count { buffer[index] = bytes[offset + index] }
            offset += count
            return count
        }
    }

    static func readAll(_ reader: LineReader) -> [Result<String, CommandIO.ReadError>] {
        var results: [Result<String, CommandIO.ReadError>] = []
        while let next = reader.nextResult() { results.append(next) }
        return results
    }

    @Test(arguments: [1, 2, 3, 7, 1 << 16])
    func linesAreTheSameWhateverTheChunkSize(chunk: Int) {
        let text = "start\r\n\npause\nprogress(request: 1)\nlast"
        #expect(
            Self.readAll(Self.reader(Array(text.utf8), chunk: chunk, maximumLineLength: 64)) == [
                .success("start\r"), .success(""), .success("pause"), .success("progress(request: 1)"),
                .success("last"),
            ])
    }

    /// A line like the one before is handed out again without being decoded (replay's `yes start`): lines of
    /// the same length but other bytes, non-ASCII lines and a line that is not UTF-8 between them still read
    /// as themselves.
    @Test(arguments: [1, 3, 1 << 16])
    func repeatedLinesReadAsThemselves(chunk: Int) {
        let bytes =
            Array("start\nstart\npause\nstart\nnaïve\nnaïve\n".utf8) + [0x62, 0xFF, 0x0A]
            + Array("naïve\n\n\nstart".utf8)
        #expect(
            Self.readAll(Self.reader(bytes, chunk: chunk)) == [
                .success("start"), .success("start"), .success("pause"), .success("start"), .success("naïve"),
                .success("naïve"), .failure(CommandIO.ReadError("not UTF-8 text")), .success("naïve"), .success(""),
                .success(""), .success("start"),
            ])
    }

    @Test(arguments: [1, 5, 1 << 16])
    func anOverlongLineIsOneErrorAndReadingGoesOnAfterIt(chunk: Int) {
        let text = "short\n" + String(repeating: "x", count: 100) + "\nnext\n" + String(repeating: "y", count: 40)
        #expect(
            Self.readAll(Self.reader(Array(text.utf8), chunk: chunk)) == [
                .success("short"), .failure(CommandIO.ReadError("longer than 16 bytes")), .success("next"),
                .failure(CommandIO.ReadError("longer than 16 bytes")),
            ])
    }

    @Test func aLineThatIsNotUTF8IsAnErrorAndTheNextLineIsRead() {
        #expect(
            Self.readAll(Self.reader([0x61, 0xFF, 0x0A, 0x62, 0x0A], chunk: 2)) == [
                .failure(CommandIO.ReadError("not UTF-8 text")), .success("b"),
            ])
    }

    @Test func anEmptySourceHasNoLines() {
        #expect(Self.readAll(Self.reader([], chunk: 4)).isEmpty)
    }

    @Test func aFailingReadIsAnErrorWithItsCause() {
        let reader = LineReader { _ in
            errno = EIO
            return -1
        }
        #expect(reader.nextResult() == .failure(CommandIO.ReadError("cannot be read (Input/output error)")))
    }
}
