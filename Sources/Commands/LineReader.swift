#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines from a file descriptor through a fixed window, so a file of any length is read in bounded
/// memory and a line longer than ``maximumLineLength`` is an error instead of an allocation the size of
/// the input. A line feed ends a line; a carriage return before it belongs to the terminator's caller
/// (replay trims it); the last line needs no line feed.
package final class LineReader {
    /// The longest line accepted, in bytes (without its line feed): 1 MiB.
    package static let maximumLineLength = 1 << 20
    /// How much is read from the descriptor at a time.
    static let windowSize = 1 << 16

    private let read: (UnsafeMutableRawBufferPointer) -> Int
    private let onClose: () -> Void
    private let maximumLineLength: Int
    private var window: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: LineReader.windowSize)
    private var start = 0
    private var atEnd = false
    private var skipping = false
    /// The last line read, as bytes and as text: a line equal to it (`yes start`) is handed out again, not
    /// decoded again.
    private var previous: (bytes: [UInt8], text: String) = ([], "")

    /// A reader over any source of bytes: `read` fills a buffer and returns the count, 0 at the end, -1 on
    /// an error (with `errno` set); `onClose` runs once when the reader is released.
    package init(
        maximumLineLength: Int = LineReader.maximumLineLength,
        read: @escaping (UnsafeMutableRawBufferPointer) -> Int, onClose: @escaping () -> Void = {}
    ) {
        self.maximumLineLength = maximumLineLength
        self.read = read
        self.onClose = onClose
    }

    /// A reader over `descriptor`; closes it when released if `closing`.
    package convenience init(descriptor: Int32, closing: Bool) {
        self.init(
            read: { buffer in
                #if canImport(Glibc)
                Glibc.read(descriptor, buffer.baseAddress, buffer.count)
                #else
                Darwin.read(descriptor, buffer.baseAddress, buffer.count)
                #endif
            },
            onClose: { if closing { _ = close(descriptor) } })
    }

    deinit { onClose() }

    /// The next line without its line feed, nil at the end; throws when a line is longer than the maximum
    /// or is not UTF-8, or when reading fails. After an overlong line, the next call continues after it.
    package func next() throws(CommandIO.ReadError) -> String? {
        while true {
            if let newline = nextLineFeed() {
                let lineStart = start
                start = newline + 1
                if skipping {
                    skipping = false
                    continue
                }
                guard newline - lineStart <= maximumLineLength else {
                    throw CommandIO.ReadError("longer than \(maximumLineLength) bytes")
                }
                return try text(window[lineStart..<newline])
            }
            if window.count - start > maximumLineLength {
                // Drop what is held of the overlong line and say so once; the rest of it is skipped.
                window.removeAll(keepingCapacity: true)
                start = 0
                if !skipping {
                    skipping = true
                    throw CommandIO.ReadError("longer than \(maximumLineLength) bytes")
                }
            }
            if atEnd {
                guard start < window.count, !skipping else {
                    skipping = false
                    return nil
                }
                let rest = window[start...]
                start = window.count
                guard rest.count <= maximumLineLength else {
                    throw CommandIO.ReadError("longer than \(maximumLineLength) bytes")
                }
                return try text(rest)
            }
            try fill()
        }
    }

    /// ``next()`` as a value: nil at the end, else the line or why it could not be read.
    package func nextResult() -> Result<String, CommandIO.ReadError>? {
        do {
            return try next().map { .success($0) }
        } catch {
            return .failure(error)
        }
    }

    private func fill() throws(CommandIO.ReadError) {
        if start > 0 {
            window.removeFirst(start)
            start = 0
        }
        // Read into the fixed scratch buffer and append only what arrived: a source that hands over a few
        // bytes at a time (a pipe, a terminal) costs a copy of those bytes, not of a whole window.
        var got = -1
        while got < 0 {
            got = scratch.withUnsafeMutableBytes { read($0) }
            if got < 0 && errno != EINTR {
                throw CommandIO.ReadError("cannot be read (\(StandardStream.describe(errno: errno)))")
            }
        }
        window.append(contentsOf: scratch[..<got])
        if got == 0 { atEnd = true }
    }

    /// The index of the first line feed in the window from `start` (`memchr`), nil when none is there.
    private func nextLineFeed() -> Int? {
        let start = self.start
        return window.withUnsafeBufferPointer { buffer in
            guard start < buffer.count, let base = buffer.baseAddress,
                let found = memchr(base + start, 0x0A, buffer.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The line's text. Through a concrete buffer: `String(validating:)` over an array slice is generic and
    /// looked up its metadata for every line (a tenth of `replay`'s time); an ASCII line, the usual one, is
    /// taken as it is, and only another is validated.
    private func text(_ bytes: ArraySlice<UInt8>) throws(CommandIO.ReadError) -> String {
        let previous = self.previous
        let isPrevious = bytes.withUnsafeBufferPointer { buffer in
            previous.bytes.withUnsafeBufferPointer { last in
                last.count == buffer.count
                    && (buffer.isEmpty || memcmp(last.baseAddress!, buffer.baseAddress!, buffer.count) == 0)
            }
        }
        if isPrevious { return previous.text }
        let line = bytes.withUnsafeBufferPointer { buffer -> String? in
            var bits: UInt8 = 0
            for byte in buffer { bits |= byte }
            return bits < 0x80 ? String(decoding: buffer, as: UTF8.self) : String(validating: buffer, as: UTF8.self)
        }
        guard let line else { throw CommandIO.ReadError("not UTF-8 text") }
        self.previous = (Array(bytes), line)
        return line
    }
}
