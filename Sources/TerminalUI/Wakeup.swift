#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A self-pipe that interrupts a terminal's wait for input: any thread (or a signal handler) writes a
/// byte, the waiting run loop sees its read end become readable. This is how actions sent by effects and
/// subscriptions wake a loop that otherwise sleeps until a key arrives.
public final class Wakeup: Sendable {
    /// The end the waiter polls.
    let readDescriptor: Int32
    /// The end `wake()` writes to.
    let writeDescriptor: Int32

    /// Opens the pipe, both ends non-blocking and closed on exec.
    public init() {
        var descriptors: [Int32] = [-1, -1]
        let result = descriptors.withUnsafeMutableBufferPointer { pipe($0.baseAddress) }
        precondition(result == 0, "pipe() failed: errno \(errno)")
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Wakes the waiter (a full pipe already means "wake up", so a failed write is fine).
    public func wake() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(readDescriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Blocks until woken, `descriptor` (if any) is readable, or `timeout` passes (nil: no limit).
    /// - Returns: true when `descriptor` is readable.
    @discardableResult
    public func wait(orReadable descriptor: Int32? = nil, timeout: Duration?) -> Bool {
        var fds = [pollfd(fd: readDescriptor, events: Int16(POLLIN), revents: 0)]
        if let descriptor { fds.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
        let milliseconds: Int32
        if let timeout {
            let (seconds, attoseconds) = timeout.components
            // Round up, so a wait for 0.4 ms does not spin as a 0 ms poll.
            let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            milliseconds = Int32(clamping: max(0, total))
        } else {
            milliseconds = -1
        }
        let ready = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        if ready > 0 && fds[0].revents != 0 { drain() }
        return ready > 0 && fds.count > 1 && fds[1].revents != 0
    }
}
