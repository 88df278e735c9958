import Commands
import Foundation
import Support
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Output written as it happens: nothing a command printed waits in the output buffer while the command
/// waits for input or goes on working.
@Suite struct CopyOutputTests {
    /// What a command printed, split into what reached standard output (flushed) and what is still held.
    final class HeldOutput {
        var held = ""
        var flushed = ""

        var io: CommandIO {
            var io = CommandIO(
                readInputLine: { nil }, readFile: { _ in .failure(CommandIO.ReadError("no such file")) },
                writeOutput: { [self] in held += $0 }, writeError: { _ in })
            io.flushOutput = { [self] in
                flushed += held
                held = ""
            }
            return io
        }
    }

    /// `copy --headless` flushes its lines as it prints them: when it returns, none is still held (before:
    /// every line waited in the 64 KiB buffer until the process ended, so a kill -9 left an empty log).
    @Test func headlessCopyLinesAreFlushedAsTheyArePrinted() async throws {
        let root = NSTemporaryDirectory() + "statetui-copyoutput-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/out", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("hello".utf8).write(to: URL(fileURLWithPath: root + "/a.txt"))
        // The headless copy blocks its thread while it waits: a thread of its own, never one of the pool's.
        let (status, held, flushed) = await DetachedThread.value(name: "statetui copy") {
            let output = HeldOutput()
            let status = CommandLineTool.run(["copy", "--headless", root + "/a.txt", root + "/out"], io: output.io) {
                _ in 0
            }
            return (status, output.held, output.flushed)
        }
        #expect(status == 0)
        #expect(held == "")
        // The file's last line and the summary, each a whole line (a new file of one chunk prints no running line
        // before its last one; one copied through a named partial does).
        #expect(
            ("\n" + flushed).contains("\na.txt: completed(file: \"\(root)/out/a.txt\")\ncopied 1 file (5 B), skipped 0")
        )
    }

    /// The process's output is written before standard input is read, so `replay` fed line by line through a
    /// pipe answers each line before it waits for the next (before: the answers waited for 64 KiB or the end).
    @Test func standardOutputIsWrittenBeforeStandardInputIsRead() throws {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        try #require(pipe(&input) == 0 && pipe(&output) == 0)
        defer { for descriptor in input + output { close(descriptor) } }
        _ = fcntl(output[0], F_SETFL, fcntl(output[0], F_GETFL) | O_NONBLOCK)
        let (io, _) = CommandIO.standard(input: input[0], output: StandardStream(descriptor: output[1]))
        #expect(StandardStream(descriptor: input[1]).write("next\n".utf8) == nil)

        io.writeOutput("answer\n")
        #expect(io.readInputLine() == "next")
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
        #expect(count >= 0 ? String(decoding: bytes[..<count], as: UTF8.self) == "answer\n" : false)
    }
}
