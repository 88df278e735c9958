import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Inspector {
    /// The I/O thread: accepts clients (this user's only), discards what they send, writes what waits for
    /// them. Machines are read by their feed readers, not here. Returns after ``stop()``, having closed the
    /// connections and the listener; the wake pipe is the inspector's to close (see ``wakeRead``).
    func serve() {
        defer { served.signal() }
        var scratch = [UInt8](repeating: 0, count: 4096)
        // Until when the listener is left alone: a connection that cannot be accepted for want of descriptors
        // stays queued, and the listener stays readable, so polling it then would spin.
        var listenerRestsUntil: ContinuousClock.Instant?
        while true {
            let plan = hub.withLock { hub -> [(id: Int, descriptor: Int32, writing: Bool)]? in
                for descriptor in hub.toClose { close(descriptor) }
                hub.toClose.removeAll()
                guard !hub.stopped else { return nil }
                return hub.clients.map { ($0.id, $0.descriptor, $0.pendingCount > 0) }
            }
            guard let plan else {
                close(listener)
                return
            }
            let now = ContinuousClock.now
            if let until = listenerRestsUntil, until <= now { listenerRestsUntil = nil }
            let rest = listenerRestsUntil.map { now.duration(to: $0) }
            var descriptors = [pollfd(fd: listener, events: rest == nil ? Int16(POLLIN) : 0, revents: 0)]
            descriptors.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            for client in plan {
                let events = Int16(POLLIN) | (client.writing ? Int16(POLLOUT) : 0)
                descriptors.append(pollfd(fd: client.descriptor, events: events, revents: 0))
            }
            // Whole milliseconds, rounded up: at least 1 (0 would return at once), at most a second.
            let timeout = rest.map { Int32(min(max(($0.inSeconds * 1000).rounded(.up), 1), 1000)) } ?? -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                // Not the descriptors' fault (each is open and the count is bounded): out of memory. Inspection
                // ends as if stopped, the next round closing everything, rather than spin on the error.
                if errno != EINTR { _ = end() }
                continue
            }
            if descriptors[1].revents != 0 { drainWakePipe(&scratch) }
            if descriptors[0].revents & Int16(POLLIN) != 0, !acceptClients() {
                listenerRestsUntil = .now + Self.listenerRest
            }
            for (offset, client) in plan.enumerated() {
                serve(client: client.id, descriptor: descriptors[offset + 2], scratch: &scratch)
            }
        }
    }

    private func drainWakePipe(_ scratch: inout [UInt8]) {
        let count = scratch.count
        while scratch.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, count) }) > 0 {}
    }

    /// How long the listener is left alone after the process (or the system) ran out of descriptors.
    static let listenerRest = Duration.milliseconds(100)

    /// Accepts every waiting connection; a peer of another user is closed at once. False when one could not be
    /// accepted for want of descriptors or memory: it waits in the queue, and trying again at once would spin.
    private func acceptClients() -> Bool {
        while true {
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else {
                return ![EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(errno)
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            guard SocketCalls.peerUID(descriptor) == getuid(), SocketCalls.setNonBlocking(descriptor) else {
                close(descriptor)
                continue
            }
            hub.withLock { $0.attach(descriptor, inspector: self) }
        }
    }

    /// Handles what `poll` said about one client: input is read (bounded) and discarded, a hang-up or an
    /// error drops it, room to write writes what waits.
    private func serve(client id: Int, descriptor: pollfd, scratch: inout [UInt8]) {
        let events = descriptor.revents
        guard events != 0 else { return }
        if events & Int16(POLLIN) != 0 {
            let count = scratch.count
            let got = scratch.withUnsafeMutableBytes { read(descriptor.fd, $0.baseAddress, count) }
            if got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR) {
                hub.withLock { $0.drop(id: id) }
                return
            }
            if got > 0 { hub.withLock { $0.received(got, from: id) } }
        }
        if events & (Int16(POLLERR) | Int16(POLLNVAL)) != 0
            || (events & Int16(POLLHUP) != 0 && events & Int16(POLLIN) == 0)
        {
            hub.withLock { $0.drop(id: id) }
            return
        }
        if events & Int16(POLLOUT) != 0 { hub.withLock { $0.writePending(to: id) } }
    }
}
