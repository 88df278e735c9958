import Dispatch
import Support

/// Group commit for the `fsync` of one file (the journal, a directory), or the `syncfs` of one file system
/// (``FileSystemSyncs``): callers that each need "what I did to this file so far is durable" share one sync
/// instead of queueing one each.
///
/// A caller takes a ticket *after* its change (a journal line written, a rename made) and waits for its
/// turn at the one sync lock. The holder reads the newest ticket issued, syncs, and marks every ticket up
/// to it durable; a caller whose ticket is already marked returns without a system call. That is sound
/// because every ticket up to the one read was issued after its change, hence before this `fsync` began,
/// and an `fsync` makes durable everything written to the file before it began. With many copies into
/// one directory, the copies' journal records and renames are made durable a batch at a time.
///
/// A failed `fsync` fails every caller from then on: after a failure Linux may report success for data it
/// dropped, so nothing later can be trusted to be durable.
final class SyncGroup: Sendable {
    private struct Tickets {
        var issued: UInt64 = 0
        var durable: UInt64 = 0
        var failure: Errno?
    }

    private let tickets = Locked(Tickets())
    /// Held while one caller syncs for the group. A semaphore, not a lock of ``Locked``'s kind: it is held
    /// across an `fsync`, and a contended `Mutex` spins before it sleeps, so dozens of copies waiting their
    /// turn burned a core between them (a sixth of a 10,000-file copy's CPU time); here they sleep.
    private let syncing = DispatchSemaphore(value: 1)

    init() {}

    /// A ticket for everything done to the file so far; take it after the change it stands for.
    func ticket() -> UInt64 {
        tickets.withLock { tickets in
            tickets.issued += 1
            return tickets.issued
        }
    }

    /// Returns once everything done to the file before `ticket` was taken is durable, running `sync`
    /// (the file's `fsync`) only if no sync that began after the ticket covered it.
    func sync(through ticket: UInt64, _ sync: () throws(Errno) -> Void) throws(Errno) {
        syncing.wait()
        defer { syncing.signal() }
        let (newest, done, failure) = tickets.withLock { ($0.issued, $0.durable >= ticket, $0.failure) }
        if let failure { throw failure }
        if done { return }
        do throws(Errno) {
            try sync()
        } catch {
            tickets.withLock { $0.failure = error }
            throw error
        }
        tickets.withLock { $0.durable = max($0.durable, newest) }
    }

    /// ``sync(through:_:)`` for a ticket taken now.
    func sync(_ sync: () throws(Errno) -> Void) throws(Errno) {
        try self.sync(through: ticket(), sync)
    }
}
