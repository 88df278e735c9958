import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timings of one frame, as the `--trace FILE` log writes them.
public struct FrameTiming: Hashable, Sendable {
    /// The frame's number, from 1.
    public var frame: Int
    /// The terminal size it was built for.
    public var size: Size
    /// Building the canvas (the view).
    public var build: Duration
    /// Finding the changed cells.
    public var diff: Duration
    /// Writing them to the terminal.
    public var flush: Duration
    /// How many cells changed.
    public var changedCells: Int

    /// One trace line: `frame=3 size=80x24 build_us=41 diff_us=12 flush_us=95 total_us=148 changed=17`.
    public var line: String {
        let build = FrameTiming.microseconds(self.build)
        let diff = FrameTiming.microseconds(self.diff)
        let flush = FrameTiming.microseconds(self.flush)
        return
            "frame=\(frame) size=\(size) build_us=\(build) diff_us=\(diff) flush_us=\(flush) total_us=\(build + diff + flush) changed=\(changedCells)"
    }

    /// A duration in whole microseconds.
    public static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}

/// The `--trace FILE` hook: appends one ``FrameTiming/line`` per frame to a file.
public final class FrameTrace: Sendable {
    private let file: Locked<UnsafeMutablePointer<FILE>?>
    /// The file written to.
    public let path: String

    /// Opens (truncates) `path` for writing; throws naming the file and the reason when it cannot.
    public init(path: String) throws(FrameTraceError) {
        guard let handle = fopen(path, "w") else {
            throw FrameTraceError(path: path, reason: String(cString: strerror(errno)))
        }
        setvbuf(handle, nil, _IOLBF, 0)
        self.path = path
        file = Locked(handle)
    }

    deinit {
        close()
    }

    /// Writes one frame's line.
    public func record(_ timing: FrameTiming) {
        file.withLock { handle in
            guard let handle else { return }
            fputs(timing.line + "\n", handle)
        }
    }

    /// Flushes and closes the file; later records are dropped.
    public func close() {
        file.withLock { handle in
            if let open = handle { fclose(open) }
            handle = nil
        }
    }
}

/// A trace file that could not be opened.
public struct FrameTraceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path given.
    public var path: String
    /// Why it failed.
    public var reason: String

    /// `cannot write trace file PATH: REASON`.
    public var description: String { "cannot write trace file \(path): \(reason)" }
}
