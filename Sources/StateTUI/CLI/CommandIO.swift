import Foundation

/// The edges a command touches: standard input, files, standard output and standard error.
/// Commands take one so tests can run them in memory; ``standard()`` is the real process.
public struct CommandIO {
    /// Why a file could not be read, in words (`no such file`, `is a directory`, …).
    public struct ReadError: Error, Hashable, Sendable {
        /// The cause.
        public var message: String

        /// A read failure with its cause.
        public init(_ message: String) { self.message = message }
    }

    /// The next line of standard input without its line terminator; nil at the end.
    public var readInputLine: () -> String?
    /// The whole text of a file, or why it cannot be read.
    public var readFile: (String) -> Result<String, ReadError>
    /// Writes to standard output (data).
    public var writeOutput: (String) -> Void
    /// Writes to standard error (diagnostics).
    public var writeError: (String) -> Void

    /// An IO from its four edges.
    public init(
        readInputLine: @escaping () -> String?, readFile: @escaping (String) -> Result<String, ReadError>,
        writeOutput: @escaping (String) -> Void, writeError: @escaping (String) -> Void
    ) {
        self.readInputLine = readInputLine
        self.readFile = readFile
        self.writeOutput = writeOutput
        self.writeError = writeError
    }

    /// The process's own standard streams and file system. Output is buffered and flushed
    /// before anything is written to standard error, so the two stay in order.
    public static func standard() -> (io: CommandIO, flush: () -> Void) {
        let output = OutputBuffer()
        let io = CommandIO(
            readInputLine: { readLine(strippingNewline: true) },
            readFile: readTextFile,
            writeOutput: { output.append($0) },
            writeError: { text in
                output.flush()
                FileHandle.standardError.write(Data(text.utf8))
            })
        return (io, { output.flush() })
    }

    /// Reads a UTF-8 text file, naming the cause when it cannot.
    public static func readTextFile(_ path: String) -> Result<String, ReadError> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(ReadError("no such file"))
        }
        guard !isDirectory.boolValue else { return .failure(ReadError("is a directory")) }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ReadError("cannot be read (permission denied?)"))
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            return .failure(ReadError("is not UTF-8 text"))
        }
        return .success(text)
    }
}

/// Collects standard output and writes it in large pieces.
private final class OutputBuffer {
    private var pending = Data()

    func append(_ text: String) {
        pending.append(contentsOf: text.utf8)
        if pending.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !pending.isEmpty else { return }
        FileHandle.standardOutput.write(pending)
        pending.removeAll(keepingCapacity: true)
    }
}
