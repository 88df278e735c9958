/// Why a copy failed, with the OS reason where there is one.
///
/// Each case is a cause a user can act on; `description` names the file and the reason, e.g.
/// `cannot read /data/a.bin: No such file or directory`.
public enum TransferError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The source is missing, unreadable or not a regular file.
    case sourceUnreadable(path: String, reason: Errno)
    /// The destination is not an existing, writable directory; refused before anything starts.
    case destinationNotWritableDirectory(path: String, reason: String)
    /// A file already exists under the final name and was not written by this journal.
    case destinationExists(path: String)
    /// The destination has no room left (ENOSPC, EFBIG from `ulimit -f`, EDQUOT); the partial is kept.
    case outOfSpace(path: String, reason: Errno)
    /// The source changed while it was copied (size, modification time or content); nothing was committed.
    case sourceChanged(path: String, detail: String)
    /// The staged file does not match what was read from the source; nothing was committed.
    case validationFailed(path: String, detail: String)
    /// Any other failed system call, with the operation and the OS reason.
    case io(operation: String, path: String, reason: Errno)
    /// The source is a FIFO, device, socket or directory: only regular files are copied (a FIFO would
    /// block the copy waiting for a writer; a device never ends).
    case notARegularFile(path: String, kind: FileKind)
    /// An entry in the destination that the copier must not read or write through: a symbolic link, a
    /// FIFO, or a file with another hard link where only a private regular file may be.
    case unsafeEntry(path: String, detail: String)
    /// Another process copies into the directory (it holds the lock on the journal at `path`): refused
    /// because the caller asked not to wait.
    case destinationBusy(path: String, holder: Int32?)
    /// The destination is the source itself (the same device and inode), as `cp` refuses it.
    case sameFile(source: String, destination: String)

    /// One line naming the file and the cause.
    /// Every path is quoted by at most ``DisplayText/quoteLimit`` characters, however long the name.
    public var description: String {
        switch self {
        case .sourceUnreadable(let path, let reason):
            "cannot read \(DisplayText.bounded(path)): \(reason.explained)"
        case .destinationNotWritableDirectory(let path, let reason):
            "destination \(DisplayText.bounded(path)) is not a writable directory: \(reason)"
        case .destinationExists(let path):
            "\(DisplayText.bounded(path)) already exists and was not written by this copy (use --overwrite to replace it)"
        case .outOfSpace(let path, let reason):
            "no room to write \(DisplayText.bounded(path)): \(reason)"
        case .sourceChanged(let path, let detail):
            "source \(DisplayText.bounded(path)) changed during the copy: \(detail)"
        case .validationFailed(let path, let detail):
            "\(DisplayText.bounded(path)) failed validation: \(detail)"
        case .io(let operation, let path, let reason):
            "cannot \(operation) \(DisplayText.bounded(path)): \(reason.explained)"
        case .notARegularFile(let path, let kind):
            "cannot copy \(DisplayText.bounded(path)): it is \(kind), not a regular file"
        case .unsafeEntry(let path, let detail):
            "refusing to use \(DisplayText.bounded(path)): \(detail)"
        case .destinationBusy(let path, let holder):
            "\(DisplayText.bounded(path)) is in use by another statetui copy\(holder.map { " (pid \($0))" } ?? "") into the same directory"
        case .sameFile(let source, let destination):
            "\(DisplayText.bounded(source)) and \(DisplayText.bounded(destination)) are the same file"
        }
    }

    /// Maps a failed write-side call to `outOfSpace` when the reason is a full disk or a size limit.
    static func writing(_ path: String, operation: String, _ reason: Errno) -> TransferError {
        reason.isOutOfSpace
            ? .outOfSpace(path: path, reason: reason) : .io(operation: operation, path: path, reason: reason)
    }
}
