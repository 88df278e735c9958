#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes every byte of `bytes` to `descriptor`: retried after a signal and after a short write, and, on a
/// non-blocking descriptor (one a shell may hand over), once it takes more. Returns nil when all were written,
/// else the `errno` of the failure (`EPIPE` when the reader has gone, `ENOSPC` on a full disk, …).
///
/// With `giveUp`, a reader that stops reading (a pipe to a pager nobody scrolls) cannot hold the caller
/// forever: each piece is written only once the descriptor takes more (`poll`, asking `giveUp` every 100 ms),
/// and no piece is longer than the smallest atomic write to a pipe (512 bytes), which then never blocks; once
/// `giveUp` says so, what the descriptor takes at once is still written, the rest is not, and the result is
/// `EINTR`.
package func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, giveUp: (() -> Bool)? = nil) -> Int32? {
    guard let base = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
        var count = bytes.count - offset
        if let giveUp {
            while true {
                // Once told to give up, what the reader still takes is written, without waiting for more.
                let givingUp = giveUp()
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                let result = poll(&ready, 1, givingUp ? 0 : 100)
                // Writable, or an error or hang-up the write reports.
                if result > 0 || (result < 0 && errno != EINTR) { break }
                if givingUp { return EINTR }
            }
            count = min(count, 512)
        }
        #if canImport(Glibc)
        let written = Glibc.write(descriptor, base + offset, count)
        #else
        let written = Darwin.write(descriptor, base + offset, count)
        #endif
        if written >= 0 {
            offset += written
            continue
        }
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK {
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&ready, 1, -1)
            continue
        }
        return code
    }
    return nil
}

/// Writes all of `text`'s UTF-8 to `descriptor`; nil, or the `errno` of the failure (see the other overload).
package func writeAll(_ descriptor: Int32, _ text: String) -> Int32? {
    var text = text
    return text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
}
