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
///
/// The queue and the descriptor of its own are made by the first request: a file smaller than the distance
/// between requests, most files of a tree, never needs either (a queue made for each file of a tree of 10,000
/// empty files, and drained when it finished, was 2% of the copy's CPU time).
final class Checkpointer: Sendable {
    // The descriptor of its own is used only on its queue and closed by `finish` or `abandon` after the
    // queue drained.
    private let state: Locked<State>
    /// The staged file's descriptor, open while checkpoints are requested; duplicated on the first request.
    private let partial: Int32
    private let fileSystem: FileSystem
    private let journal: CopyJournal?
    private let name: String
    private let path: DeferredPath

    /// Checkpoints the partial at `path` whose open descriptor is `partial`; `durable` is the offset already
    /// on storage. The first request takes a descriptor of its own (a duplicate, never a reopen by name);
    /// a file smaller than the distance between requests, most files of a tree, never needs one.
    init(
        partial: Int32, path: DeferredPath, name: String, durable: Int64, journal: CopyJournal?, fileSystem: FileSystem
    ) {
        self.partial = partial
        self.path = path
        self.name = name
        self.state = Locked(State(durable: durable))
        self.journal = journal
        self.fileSystem = fileSystem
    }

    private struct State {
        var durable: Int64
        var failure: TransferError?
        var closed = false
        /// The descriptor of its own and the serial queue its requests run on, once a request took them.
        var own: (descriptor: Int32, queue: DispatchQueue)?
    }

    /// The largest offset known to be durable and journaled.
    var durableOffset: Int64 { state.withLock { $0.durable } }

    /// The first background failure, if any; the loop stops on it.
    var firstFailure: TransferError? { state.withLock { $0.failure } }

    /// The descriptor of its own and the queue requests run on, the descriptor duplicated and the queue made now
    /// if no request took them yet; nil once closed or failed (a failure to duplicate is the first failure).
    private func own() -> (descriptor: Int32, queue: DispatchQueue)? {
        let (partial, fileSystem, path) = (self.partial, self.fileSystem, self.path)
        return state.withLock { state -> (descriptor: Int32, queue: DispatchQueue)? in
            guard !state.closed, state.failure == nil else { return nil }
            if let own = state.own { return own }
            do throws(Errno) {
                let own = (
                    descriptor: try fileSystem.duplicate(partial),
                    queue: DispatchQueue(label: "statetui.file-transfer.checkpoint")
                )
                state.own = own
                return own
            } catch {
                state.failure = TransferError.io(operation: "reopen", path: path.string, reason: error)
                return nil
            }
        }
    }

    /// Queues making the first `offset` bytes durable and journaling that.
    func checkpoint(at offset: Int64) {
        guard let (descriptor, queue) = own() else { return }
        queue.async { [self] in
            guard state.withLock({ $0.failure == nil && !$0.closed }) else { return }
            var outcome: TransferError?
            do throws(Errno) {
                try fileSystem.sync(descriptor)
            } catch {
                outcome = TransferError.writing(path.string, operation: "sync", error)
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
        guard let (descriptor, queue) = own() else { return }
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

    /// Drains the queue and closes the descriptor once. The copy's loop closes it only once the writes that its
    /// requests run behind are drained, so no request makes a queue after the one drained here (and one that came
    /// later would find it closed).
    private func close() -> (durable: Int64, failure: TransferError?) {
        state.withLock { $0.own?.queue }?.sync {}
        let (durable, failure, own) = state.withLock { state in
            defer {
                state.closed = true
                state.own = nil
            }
            return (state.durable, state.failure, state.own)
        }
        if let own {
            fileSystem.close(own.descriptor)
        }
        return (durable, failure)
    }
}
