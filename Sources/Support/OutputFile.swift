#if canImport(Glibc)
import Glibc

private let systemClose = Glibc.close
#elseif canImport(Darwin)
import Darwin

private let systemClose = Darwin.close
#endif

/// A file the program writes for its user (a Mermaid export, a `--record` cast, a `--trace` log), opened
/// through its directory's descriptor without following a symbolic link in its place.
///
/// A link at the path, made by someone else, would otherwise send the bytes to whatever it names; so the
/// last component is opened with `O_NOFOLLOW` and a link there is refused, naming the entry. Every failure,
/// opening or writing, is an ``OutputFileError`` that says what happened to which path in words (never a
/// Foundation error domain and number).
package struct OutputFile: Sendable {
    /// The path as given.
    package let path: String
    private let descriptor: Int32
    /// Whether it is a pipe or a socket, whose reader may go: a write then fails with `EPIPE`, never raising
    /// SIGPIPE, which would end the program (a dashboard's `--trace` to a FIFO whose reader quit).
    private let isPipe: Bool

    /// Creates `path`, or truncates the regular file (or device, or pipe) already there, for writing.
    package init(creating path: String) throws(OutputFileError) {
        self.path = path
        let (directory, name) = Self.split(path)
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else {
            let code = errno
            throw OutputFileError(
                path: path,
                reason: code == ENOENT || code == ENOTDIR
                    ? "its directory \(directory) does not exist" : OutputFileError.words(code))
        }
        defer { _ = systemClose(directoryDescriptor) }
        // Non-blocking only while opening, so that a pipe nobody reads fails at once instead of hanging.
        let opened = openat(
            directoryDescriptor, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard opened >= 0 else { throw OutputFileError(path: path, code: errno) }
        let flags = fcntl(opened, F_GETFL)
        if flags >= 0 { _ = fcntl(opened, F_SETFL, flags & ~O_NONBLOCK) }
        descriptor = opened
        var status = stat()
        let kind = fstat(opened, &status) == 0 ? status.st_mode & S_IFMT : 0
        isPipe = kind == S_IFIFO || kind == S_IFSOCK
        #if canImport(Darwin)
        // Darwin says it per descriptor: a write then fails with EPIPE and raises nothing.
        if isPipe { _ = fcntl(opened, F_SETNOSIGPIPE, 1) }
        #endif
    }

    /// Writes all of `text`.
    package func write(_ text: String) throws(OutputFileError) {
        #if canImport(Glibc)
        let code = isPipe ? Self.withoutBrokenPipeSignal { writeAll(descriptor, text) } : writeAll(descriptor, text)
        #else
        let code = writeAll(descriptor, text)
        #endif
        if let code { throw OutputFileError(path: path, code: code) }
    }

    #if canImport(Glibc)

    /// Runs `write` with SIGPIPE blocked on this thread, and takes back the SIGPIPE a write to a pipe without a
    /// reader raised meanwhile (the write itself fails with `EPIPE`), so that it never ends the program. The
    /// signal is sent to the thread that wrote, so blocking it here is enough; one pending before is left.
    private static func withoutBrokenPipeSignal(_ write: () -> Int32?) -> Int32? {
        var brokenPipe = sigset_t()
        sigemptyset(&brokenPipe)
        sigaddset(&brokenPipe, SIGPIPE)
        var pending = sigset_t()
        sigpending(&pending)
        let pendingBefore = sigismember(&pending, SIGPIPE) == 1
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &brokenPipe, &previous)
        let code = write()
        if code == EPIPE && !pendingBefore {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&brokenPipe, nil, &now) < 0 && errno == EINTR {}
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return code
    }
    #endif

    /// Closes the file; a failure here (a full disk on a network file system) is a failed write too.
    package func close() throws(OutputFileError) {
        // After EINTR the descriptor is closed all the same (Linux), and nothing was lost.
        guard systemClose(descriptor) != 0, errno != EINTR else { return }
        throw OutputFileError(path: path, code: errno)
    }

    /// Creates (or truncates) `path` and writes `text` into it.
    package static func write(_ text: String, to path: String) throws(OutputFileError) {
        try write(text, into: OutputFile(creating: path))
    }

    /// Writes `text` into `file` and closes it, whether the write succeeded or not.
    package static func write(_ text: String, into file: OutputFile) throws(OutputFileError) {
        do {
            try file.write(text)
        } catch {
            try? file.close()
            throw error
        }
        try file.close()
    }

    /// The directory to open and the entry in it: `a/b/c` → (`a/b`, `c`), `c` → (`.`, `c`), `/c` → (`/`, `c`);
    /// a path ending in `/` names the directory itself (`.`), which opening for writing refuses.
    ///
    /// Split at the last `/` byte, as the system reads the path (in characters, a `/` before a combining mark
    /// was one character with the mark, and not found).
    static func split(_ path: String) -> (directory: String, name: String) {
        let bytes = path.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
        let directory = String(decoding: bytes[..<slash], as: UTF8.self)
        let name = String(decoding: bytes[bytes.index(after: slash)...], as: UTF8.self)
        return (directory.isEmpty ? "/" : directory, name.isEmpty ? "." : name)
    }
}

/// A file of ``OutputFile`` that could not be created or written.
package struct OutputFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path given.
    package var path: String
    /// What happened, in words: `it is a symbolic link (not followed)`, `No space left on device`.
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(path: String, code: Int32) {
        self.init(path: path, reason: Self.words(code))
    }

    /// `cannot write PATH: REASON`.
    package var description: String { "cannot write \(path): \(reason)" }

    /// `errno` in words, the cases a user meets here said plainly.
    static func words(_ code: Int32) -> String {
        switch code {
        case ELOOP: "it is a symbolic link, which is not followed"
        case EISDIR: "it is a directory"
        case ENXIO: "it is a pipe that nobody reads"
        case EPIPE: "the pipe's reader has gone"
        default: String(cString: strerror(code))
        }
    }
}
