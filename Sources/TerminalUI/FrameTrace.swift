import Support

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
///
/// The file is created without following a symbolic link in its place (``OutputFile``). The first failed
/// write stops the trace and is kept for ``close()`` to report, so a full disk (`--trace /dev/full`) ends
/// in a message and a failure status rather than in silence.
public final class FrameTrace: Sendable {
    private struct Sink {
        var file: OutputFile?
        var failure: FrameTraceError?
    }

    private let sink: Locked<Sink>
    /// The file written to.
    public let path: String

    /// Opens (truncates) `path` for writing; throws naming the file and the reason when it cannot.
    public init(path: String) throws(FrameTraceError) {
        do {
            sink = Locked(Sink(file: try OutputFile(creating: path)))
        } catch {
            throw FrameTraceError(path: path, reason: error.reason)
        }
        self.path = path
    }

    deinit {
        _ = close()
    }

    /// Writes one frame's line; after a failed write, records are dropped.
    public func record(_ timing: FrameTiming) {
        sink.withLock { sink in
            guard let file = sink.file else { return }
            do throws(OutputFileError) {
                try file.write(timing.line + "\n")
            } catch {
                try? file.close()
                sink.file = nil
                sink.failure = FrameTraceError(path: path, reason: error.reason)
            }
        }
    }

    /// Closes the file; later records are dropped. The first write or close that failed, if one did.
    @discardableResult
    public func close() -> FrameTraceError? {
        sink.withLock { sink in
            if let file = sink.file {
                sink.file = nil
                do throws(OutputFileError) {
                    try file.close()
                } catch {
                    sink.failure = sink.failure ?? FrameTraceError(path: path, reason: error.reason)
                }
            }
            return sink.failure
        }
    }
}

/// A trace file that could not be opened or written.
public struct FrameTraceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path given.
    public var path: String
    /// Why it failed.
    public var reason: String

    /// `cannot write trace file PATH: REASON`.
    public var description: String { "cannot write trace file \(path): \(reason)" }
}
