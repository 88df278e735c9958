#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes every byte of `bytes` to `descriptor`: retried after a signal and after a short write, and, on a
/// non-blocking descriptor (one a shell may hand over), once it takes more. Returns nil when all were written,
/// else the `errno` of the failure (`EPIPE` when the reader has gone, `ENOSPC` on a full disk, …).
package func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    guard let base = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
        #if canImport(Glibc)
        let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
        #else
        let written = Darwin.write(descriptor, base + offset, bytes.count - offset)
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
