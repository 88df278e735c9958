#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The edges a command touches: standard input, files, standard output and standard error.
/// Commands take one so tests can run them in memory; ``standard()`` is the real process.
package struct CommandIO {
    /// Why a file could not be read, in words (`no such file`, `is a directory`, …).
    package struct ReadError: Error, Hashable, Sendable {
        /// The cause.
        package var message: String

        /// A read failure with its cause.
        package init(_ message: String) { self.message = message }
    }

    /// A source of lines: the next line without its terminator, nil at the end, or why it cannot be read
    /// (the source continues after an error that concerns one line).
    package typealias Lines = () -> Result<String, ReadError>?

    /// The largest file ``readFile`` reads whole (a demo script): 1 MiB. Longer inputs are read as
    /// ``Lines``.
    static let maximumFileSize = 1 << 20

    /// The next line of standard input without its line terminator; nil at the end.
    package var readInputLine: () -> String?
    /// The whole text of a file, or why it cannot be read.
    package var readFile: (String) -> Result<String, ReadError>
    /// Writes to standard output (data).
    package var writeOutput: (String) -> Void
    /// Writes to standard error (diagnostics).
    package var writeError: (String) -> Void
    /// The lines of standard input (nil) or of the file at a path, read a bounded window at a time.
    package var openLines: (String?) -> Result<Lines, ReadError>
    /// Writes out what ``writeOutput`` buffered, for output that a reader follows live (`inspect --headless`,
    /// `copy --headless`).
    package var flushOutput: () -> Void = {}

    /// An IO from its edges. Without `openLines`, lines come from `readInputLine` and from `readFile`'s text.
    package init(
        readInputLine: @escaping () -> String?, readFile: @escaping (String) -> Result<String, ReadError>,
        writeOutput: @escaping (String) -> Void, writeError: @escaping (String) -> Void,
        openLines: ((String?) -> Result<Lines, ReadError>)? = nil
    ) {
        self.readInputLine = readInputLine
        self.readFile = readFile
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.openLines =
            openLines ?? { path in
                guard let path else { return .success({ readInputLine().map { .success($0) } }) }
                return readFile(path).map { text in
                    let remaining = RemainingLines(CommandIO.splitLines(text))
                    return { remaining.next().map { .success($0) } }
                }
            }
    }

    /// The process's own standard streams and file system (`input`, `output` and `error` name others for
    /// tests). Output is buffered and flushed before anything is written to standard error, so the two stay
    /// in order, and before standard input is read, so a reader following the output through a pipe sees
    /// every answer before the next question is awaited (`replay` fed line by line). Commands that print
    /// while they work call ``flushOutput`` after each burst. A write error never crashes: when the reader
    /// of standard output has gone, the process exits quietly with ``StandardStream/closedPipeStatus``; any
    /// other write error prints one line on standard error and exits with status 1.
    package static func standard(
        input inputDescriptor: Int32 = 0, output outputStream: StandardStream = .output,
        error errorStream: StandardStream = .error
    ) -> (io: CommandIO, flush: () -> Void) {
        let output = OutputBuffer(stream: outputStream, error: errorStream)
        let input = LineReader(
            read: { buffer in
                output.flush()
                return read(inputDescriptor, buffer.baseAddress, buffer.count)
            })
        let io = CommandIO(
            readInputLine: { try? input.next() },
            readFile: { readTextFile($0) },
            writeOutput: { output.append($0) },
            writeError: { text in
                output.flush()
                // Nothing is left to tell about a failing standard error: the exit status says it. A line given
                // up after a stop was asked for is dropped: the command stops as asked.
                switch errorStream.write(text.utf8) {
                case nil, .abandoned?: break
                case .closedPipe?, .failed?: exit(1)
                }
            },
            openLines: { path in
                guard let path, path != "-" else { return .success(input.nextResult) }
                return openFile(path).map { LineReader(descriptor: $0, closing: true).nextResult }
            })
        var flushing = io
        flushing.flushOutput = { output.flush() }
        return (flushing, { output.flush() })
    }

    /// Reads a UTF-8 text file of at most `limit` bytes, naming the cause when it cannot; never blocks on a
    /// FIFO without a writer.
    static func readTextFile(_ path: String, limit: Int = maximumFileSize) -> Result<String, ReadError> {
        openFile(path).flatMap { descriptor in
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while bytes.count <= limit {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    return .failure(ReadError("cannot be read (\(StandardStream.describe(errno: errno)))"))
                }
                if count == 0 { break }
                bytes += chunk[..<count]
            }
            guard bytes.count <= limit else { return .failure(ReadError("is larger than \(limit) bytes")) }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return .failure(ReadError("is not UTF-8 text"))
            }
            return .success(text)
        }
    }

    /// Opens `path` for reading without blocking on a FIFO that has no writer yet (reads then block as
    /// usual), refusing directories; the caller closes the descriptor.
    static func openFile(_ path: String) -> Result<Int32, ReadError> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: return .failure(ReadError("no such file"))
            case EACCES, EPERM: return .failure(ReadError("cannot be read (permission denied)"))
            default: return .failure(ReadError("cannot be opened (\(StandardStream.describe(errno: code)))"))
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            return .failure(ReadError("cannot be read (\(StandardStream.describe(errno: code)))"))
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            close(descriptor)
            return .failure(ReadError("is a directory"))
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return .success(descriptor)
    }

    /// Splits on line feeds (a trailing one ends the last line rather than starting an empty one).
    static func splitLines(_ text: String) -> [String] {
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// Collects standard output and writes it in large pieces; a failed write ends the process (see
/// ``CommandIO/standard()``).
private final class OutputBuffer {
    private let stream: StandardStream
    private let error: StandardStream
    private var pending: [UInt8] = []

    init(stream: StandardStream, error: StandardStream) {
        self.stream = stream
        self.error = error
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { pending.append(contentsOf: $0) }
        if pending.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !pending.isEmpty else { return }
        let failure = stream.write(pending)
        pending.removeAll(keepingCapacity: true)
        switch failure {
        case nil: return
        // A stop was asked for while nobody read: what was left is dropped, and the command stops as asked.
        case .abandoned: return
        case .closedPipe: exit(StandardStream.closedPipeStatus)
        case .failed(let code):
            error.write(
                "statetui: cannot write to standard output: \(StandardStream.describe(errno: code))\n".utf8)
            exit(1)
        }
    }
}

/// The lines of a text already in memory, handed out one at a time.
private final class RemainingLines {
    private var lines: ArraySlice<String>

    init(_ lines: [String]) { self.lines = lines[...] }

    func next() -> String? { lines.popFirst() }
}
