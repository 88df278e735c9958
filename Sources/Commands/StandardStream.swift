import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file descriptor written with `write(2)` until every byte is out: the one place the command line writes
/// to standard output and standard error, so a write error is a value, never a crash.
package struct StandardStream: Sendable {
    /// Why bytes could not be written.
    package enum WriteFailure: Error, Hashable, Sendable {
        /// The reading end of a pipe is gone (`EPIPE`): the reader has what it wanted.
        case closedPipe
        /// Any other error, with its `errno` (`ENOSPC`, `EIO`, …).
        case failed(errno: Int32)
        /// Given up while the reader took nothing more, once a stop was asked for (``StopRequest``).
        case abandoned
    }

    /// The exit status after the reader of standard output went away: what a shell reports for a
    /// process killed by SIGPIPE (128 + 13), so `statetui … | head` ends as other Unix tools do.
    static let closedPipeStatus: Int32 = 141

    /// The descriptor written to.
    package var descriptor: Int32

    /// A stream over `descriptor` (not owned: never closed).
    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Standard output.
    package static let output = StandardStream(descriptor: 1)
    /// Standard error.
    package static let error = StandardStream(descriptor: 2)

    /// Writes every byte, retrying after a signal and after a short write; nil when all were written. While
    /// the reader takes nothing, a stop asked for by SIGINT or SIGTERM (``StopRequest``) ends the wait: the rest
    /// is `abandoned`, so a copy whose output nobody reads still stops when told to.
    @discardableResult
    package func write(_ bytes: some Collection<UInt8>) -> WriteFailure? {
        let code = Array(bytes).withUnsafeBytes {
            writeAll(descriptor, $0, giveUp: StopRequest.isActive ? { StopRequest.received } : nil)
        }
        switch code {
        case nil: return nil
        case EPIPE?: return .closedPipe
        case EINTR?: return .abandoned
        case let code?: return .failed(errno: code)
        }
    }

    /// `errno`'s text, e.g. `No space left on device`.
    package static func describe(errno code: Int32) -> String {
        String(cString: strerror(code))
    }
}
