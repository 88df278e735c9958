import Dispatch
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes a copy's progress durable in the background: fsyncs the partial, then journals the checkpoint.
///
/// An fsync of 64 MiB takes tens of milliseconds; done inline it stalls the copy loop each time. Here
/// it runs on its own serial queue through its own descriptor while the loop keeps writing. Every byte
/// below the requested offset was written before the fsync started, so once it returns those bytes are
/// on stable storage, whatever was written after. Requests run in order; draining the queue makes every
/// requested checkpoint durable. The fsyncs also start the disk early, so the commit's own fsync only
/// waits for the tail.
final class Checkpointer: Sendable {
    // The descriptor is used only on `queue` and closed by `finish` or `abandon` after the queue drained.
    private let queue = DispatchQueue(label: "statetui.file-transfer.checkpoint")
    private let state: Locked<State>
    private let descriptor: Int32
    private let fileSystem: FileSystem
    private let journal: CopyJournal?
    private let name: String
    private let path: String

    /// Takes over `descriptor`, a descriptor of its own on the partial at `path` (a duplicate of the
    /// staged file's, never a reopen by name); `durable` is the offset already on storage.
    init(descriptor: Int32, path: String, name: String, durable: Int64, journal: CopyJournal?, fileSystem: FileSystem) {
        self.descriptor = descriptor
        self.path = path
        self.name = name
        self.state = Locked(State(durable: durable, failure: nil, closed: false))
        self.journal = journal
        self.fileSystem = fileSystem
    }

    private struct State {
        var durable: Int64
        var failure: TransferError?
        var closed: Bool
    }

    /// The largest offset known to be durable and journaled.
    var durableOffset: Int64 { state.withLock { $0.durable } }

    /// The first background failure, if any; the loop stops on it.
    var firstFailure: TransferError? { state.withLock { $0.failure } }

    /// Queues making the first `offset` bytes durable and journaling that.
    func checkpoint(at offset: Int64) {
        queue.async { [self] in
            guard state.withLock({ $0.failure == nil && !$0.closed }) else { return }
            var outcome: TransferError?
            do throws(Errno) {
                try fileSystem.sync(descriptor)
            } catch {
                outcome = TransferError.writing(path, operation: "sync", error)
            }
            if outcome == nil {
                do throws(TransferError) {
                    try journal?.append(.checkpoint(name: name, offset: offset))
                } catch {
                    outcome = error
                }
            }
            state.withLock { state in
                if let outcome {
                    state.failure = state.failure ?? outcome
                } else {
                    state.durable = max(state.durable, offset)
                }
            }
        }
    }

    /// Queues starting the write-back of the bytes from `start` to `end` without waiting for it, so the
    /// disk writes while the loop copies instead of all at the next fsync (the kernel would otherwise
    /// hold a whole copy in memory until the commit).
    func startWriteback(from start: Int64, to end: Int64) {
        queue.async { [self] in
            guard state.withLock({ !$0.closed }) else { return }
            fileSystem.startWriteback(descriptor, start, end - start)
        }
    }

    /// Waits for the queued checkpoints, closes the descriptor and returns the durable offset; throws
    /// the first background failure.
    func finish() throws(TransferError) -> Int64 {
        let (durable, failure) = close()
        if let failure { throw failure }
        return durable
    }

    /// Waits for the queued checkpoints and closes the descriptor, ignoring failures (the copy has
    /// already failed for another reason); returns the durable offset.
    func abandon() -> Int64 {
        close().durable
    }

    /// Drains the queue and closes the descriptor once.
    private func close() -> (durable: Int64, failure: TransferError?) {
        queue.sync {}
        let (durable, failure, wasClosed) = state.withLock { state in
            defer { state.closed = true }
            return (state.durable, state.failure, state.closed)
        }
        if !wasClosed {
            fileSystem.close(descriptor)
        }
        return (durable, failure)
    }
}
