import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The preflight check of a destination directory, made before any transfer starts.
public enum Destination {
    /// Throws `destinationNotWritableDirectory` unless `directory` exists, is a directory and the user
    /// may create files in it.
    public static func validate(_ directory: String, fileSystem: FileSystem = .posix) throws(TransferError) {
        let status: FileStatus
        do {
            status = try fileSystem.statusOfPath(directory)
        } catch {
            throw .destinationNotWritableDirectory(path: directory, reason: error.description)
        }
        guard status.isDirectory else {
            throw .destinationNotWritableDirectory(path: directory, reason: Errno.notDirectory.description)
        }
        do {
            try fileSystem.access(directory, W_OK | X_OK)
        } catch {
            throw .destinationNotWritableDirectory(path: directory, reason: error.description)
        }
    }
}

/// The destination directory held open as a descriptor, treated as hostile ground.
///
/// Every entry the copier reads, creates, renames or removes there is named relative to this descriptor
/// (`openat`, `fstatat`, `renameat`, `unlinkat`), so replacing the directory's path while a copy runs
/// (renaming it, putting a symbolic link in its place) cannot redirect a single write. Inside it, the
/// copier never follows a symbolic link: new files are created with `O_CREAT | O_EXCL | O_NOFOLLOW`
/// after removing (not following) whatever entry was planted under the name; existing files are opened
/// with `O_NOFOLLOW | O_NONBLOCK` and used only when they are regular files (and, to be written, have no
/// second hard link), so a planted symbolic link, FIFO or hard link to a file elsewhere is refused.
public final class DestinationDirectory: Sendable {
    /// The directory's path as given (for messages; never used to reach a file after opening).
    public let path: String
    /// The system calls to use.
    public let fileSystem: FileSystem
    let descriptor: Int32
    /// Closes the descriptor once no directory value uses it (``using(_:)`` shares it).
    private let owner: OpenDescriptor
    /// Whether this run made the directory (``subdirectory(_:madeEarlier:)``) rather than finding it: it was empty
    /// then, and stays private (mode 0700) until the copy gives it its source's mode, so no earlier file is under
    /// any name in it, and the copy's jobs do not look for one before a name's first run
    /// (``CopyJob``'s plan).
    public let isNew: Bool

    /// Checks that `path` is a writable directory and opens it.
    public init(path: String, fileSystem: FileSystem = .posix) throws(TransferError) {
        try Destination.validate(path, fileSystem: fileSystem)
        do {
            descriptor = try fileSystem.open(path, O_RDONLY | O_DIRECTORY, 0)
        } catch {
            throw .destinationNotWritableDirectory(path: path, reason: error.description)
        }
        owner = OpenDescriptor(descriptor, closedBy: fileSystem)
        self.path = path
        self.fileSystem = fileSystem
        isNew = false
    }

    private init(path: String, owner: OpenDescriptor, fileSystem: FileSystem, isNew: Bool) {
        self.path = path
        self.descriptor = owner.descriptor
        self.owner = owner
        self.fileSystem = fileSystem
        self.isNew = isNew
    }

    /// The same open directory (the same descriptor, so the very same directory even if its path was
    /// replaced since) reached through other system calls, e.g. a copy job's own file system. It opens
    /// nothing: thousands of jobs in one directory share its one descriptor, closed when the last goes.
    public func using(_ fileSystem: FileSystem) -> DestinationDirectory {
        DestinationDirectory(path: path, owner: owner, fileSystem: fileSystem, isNew: isNew)
    }

    /// The subdirectory `name`, created private (mode 0700, given its source's mode only after its contents,
    /// ``copyMetadata(from:)``) unless a directory is already there,
    /// and opened without following a symbolic link: a symbolic link or any other entry planted under the
    /// name is refused with `unsafeEntry`, so a tree is never copied through it. A name the copy keeps for its
    /// journal or a partial is refused too: a directory there would leave no room for this one's journal.
    ///
    /// It ``isNew`` when it was made now, or when `madeEarlier` says this run made it before (a tree's own
    /// directory is made before its walk opens it again).
    public func subdirectory(_ name: String, madeEarlier: Bool = false) throws(TransferError) -> DestinationDirectory {
        try checkName(name)
        try checkNotReserved(name)
        let entry = path(of: name)
        var made = true
        do {
            try fileSystem.makeDirectoryAt(descriptor, name, 0o700)
        } catch .init(rawValue: EEXIST) {
            // Whatever is there is checked by the open below.
            made = false
        } catch {
            throw .writing(entry, operation: "create directory", error)
        }
        let opened: Int32
        do {
            opened = try fileSystem.openAt(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY, 0)
        } catch .init(rawValue: ELOOP), .notDirectory {
            // Linux answers ENOTDIR for a symbolic link opened with O_DIRECTORY | O_NOFOLLOW.
            throw .unsafeEntry(path: entry, detail: Self.notADirectory((try? status(of: name))??.kind))
        } catch {
            throw .io(operation: "open", path: entry, reason: error)
        }
        return DestinationDirectory(
            path: entry, owner: OpenDescriptor(opened, closedBy: fileSystem), fileSystem: fileSystem,
            isNew: made || madeEarlier)
    }

    /// Checks, without creating anything, that ``subdirectory(_:)`` could use the entry `name`: nothing is there,
    /// or a directory is; throws what it would throw for a reserved name, a symbolic link or another entry in
    /// the way. For the checks a copy makes before it writes anything (`--dry-run` makes them too).
    public func checkSubdirectory(_ name: String) throws(TransferError) {
        try checkName(name)
        try checkNotReserved(name)
        guard let present = try status(of: name), present.kind != .directory else { return }
        throw .unsafeEntry(path: path(of: name), detail: Self.notADirectory(present.kind))
    }

    /// Why an entry of `kind` cannot hold a copied directory's contents.
    package static func notADirectory(_ kind: FileKind?) -> String {
        kind == .symbolicLink ? "it is a symbolic link, which the copy never follows" : "it is not a directory"
    }

    /// Gives this directory, when the process owns it but may not create entries in it (a read-only directory,
    /// such as `0500`, that an earlier copy gave its source's mode), write and search permission for its owner,
    /// as `rsync -a` does with the directories it fills: a rerun can then add a changed file and its journal.
    /// Nothing is wider for anyone but the owner, and the copy gives the directory its source's mode once its
    /// contents are copied (``copyMetadata(from:attributesOf:)``), as it does to one it created `0700`. Nothing
    /// as root, which writes anyway, nor for another user's directory.
    public func allowOwnerWrites() throws(TransferError) {
        guard !runsAsRoot else { return }
        let ownerWrites = UInt32(S_IWUSR | S_IXUSR)
        do throws(Errno) {
            let status = try fileSystem.status(descriptor)
            guard status.user == effectiveUser, status.permissions & ownerWrites != ownerWrites else { return }
            try fileSystem.setPermissions(descriptor, status.permissions | ownerWrites)
        } catch {
            throw .writing(path, operation: "make writable for the copy", error)
        }
    }

    /// What this directory is on disk, as a tree's walk avoids it (``SourceTree/Walk``); nil when its status
    /// cannot be read.
    package var asWalkDestination: SourceTree.Destination? {
        (try? fileSystem.status(descriptor)).map { SourceTree.Destination(path: path, identity: $0.identity) }
    }

    /// True when this directory is the directory `ancestor` or lies anywhere below it: going up through
    /// `..` from this directory's descriptor (so through the real parents, whatever path was given) meets
    /// it before the root. A tree copied into such a directory would be copied into itself.
    ///
    /// A parent that cannot be opened (search permission only) ends the search with false: every
    /// directory between a source tree's root and a directory inside it is read by the tree's walk, so
    /// such a parent lies above any tree that could be copied.
    package func isWithin(_ ancestor: FileIdentity) -> Bool {
        guard var here = try? fileSystem.duplicate(descriptor) else { return false }
        defer { fileSystem.close(here) }
        while let status = try? fileSystem.status(here) {
            if status.identity == ancestor { return true }
            guard let parent = try? fileSystem.openAt(here, "..", O_RDONLY | O_DIRECTORY | O_NOCTTY, 0) else {
                return false
            }
            fileSystem.close(here)
            here = parent
            // The root is its own parent.
            if (try? fileSystem.status(here))?.identity == status.identity { return false }
        }
        return false
    }

    /// The path of `name` in this directory, for messages.
    public func path(of name: String) -> String {
        DeferredPath.joining(path, name)
    }

    /// ``path(of:)``, joined only when a message asks for it.
    func location(of name: String) -> DeferredPath {
        DeferredPath(directory: path, name: name)
    }

    /// The entry `name` as it is (a symbolic link is described, not followed); nil when there is none.
    public func status(of name: String) throws(TransferError) -> FileStatus? {
        try checkName(name)
        do {
            return try fileSystem.statusAt(descriptor, name)
        } catch .noSuchFile {
            return nil
        } catch {
            throw .io(operation: "inspect", path: path(of: name), reason: error)
        }
    }

    /// Creates `name` as a new, empty regular file opened with `flags` (plus `O_CREAT | O_EXCL |
    /// O_NOFOLLOW`). With `replacing`, an entry already there (a stale partial, a planted symbolic
    /// link or hard link) is removed, without following it, and the file created again; without, the caller
    /// found none, and an entry there is one that appeared meanwhile.
    func create(_ name: String, flags: Int32, replacing: Bool) throws(TransferError) -> Int32 {
        try checkName(name)
        var created = createNew(name, flags: flags)
        if replacing, case .failure(let error) = created, error.rawValue == EEXIST {
            // Removed only when something is there: an `unlink` of a missing name would still take the
            // directory's lock, once for every file of a tree.
            try remove(name)
            created = createNew(name, flags: flags)
        }
        switch created {
        case .success(let descriptor):
            return descriptor
        case .failure(let error) where error.rawValue == EEXIST:
            throw .unsafeEntry(path: path(of: name), detail: "an entry appeared under this name while it was created")
        case .failure(let error):
            throw .writing(path(of: name), operation: "create", error)
        }
    }

    /// A new, empty regular file with no name in this directory, open to read and write and private (`0600`) until
    /// the copy gives it its source's mode (``FileSystem/Calls/openUnnamed``); named by ``link(unnamed:as:)`` once
    /// complete; counted in `budget` until closed. Nil where the platform or the directory's file system has none,
    /// where `budget`'s files are all open, or where this one could not be made: the caller makes a named partial
    /// instead, whose creation says why when it fails too.
    func createUnnamed(within budget: UnnamedFiles.Budget) -> Int32? {
        guard let open = fileSystem.openUnnamed, fileSystem.linkUnnamed != nil,
            !owner.refusesUnnamed.load(ordering: .relaxed), budget.reserve()
        else { return nil }
        do {
            return try open(descriptor, 0o600)
        } catch {
            budget.release()
            if UnnamedFiles.isUnsupported(error) { owner.refusesUnnamed.store(true, ordering: .relaxed) }
            return nil
        }
    }

    /// Gives the unnamed file open as `unnamed` (``createUnnamed(within:)``) the name `name`, atomically, complete. An
    /// entry that appeared under the name meanwhile (the copy found none, or did not look in a directory it
    /// made) is left as it is and the file is refused, never replaced or followed. Any other failure fails this
    /// file, and the directory's next copies make named partials (a file system might make files with no name
    /// and refuse to link them).
    func link(unnamed: Int32, as name: String) throws(TransferError) {
        try checkName(name)
        guard let link = fileSystem.linkUnnamed else {
            preconditionFailure("Internal inconsistency: an unnamed file made where none can be named")
        }
        do {
            try link(unnamed, descriptor, name)
        } catch .init(rawValue: EEXIST) {
            throw .unsafeEntry(path: path(of: name), detail: "an entry appeared under this name while it was copied")
        } catch {
            owner.refusesUnnamed.store(true, ordering: .relaxed)
            throw .writing(path(of: name), operation: "create", error)
        }
    }

    /// `openat` of a new file `name`, never following a symbolic link; private (`0600`) until the copy gives
    /// it its source's mode, so never wider than the source at any moment.
    private func createNew(_ name: String, flags: Int32) -> Result<Int32, Errno> {
        Result { () throws(Errno) in
            try fileSystem.openAt(descriptor, name, flags | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        }
    }

    /// Opens the existing regular file `name` with `flags`, never following a symbolic link and never
    /// blocking (a planted FIFO). Returns nil when there is no such entry. Throws `unsafeEntry` for
    /// anything but a regular file, and, when `writable`, for a file with another hard link (writing
    /// it would change a file outside the directory).
    func openExisting(_ name: String, flags: Int32, writable: Bool) throws(TransferError) -> Int32? {
        try checkName(name)
        let file = path(of: name)
        let opened: Int32
        do {
            opened = try fileSystem.openAt(descriptor, name, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0)
        } catch .noSuchFile {
            return nil
        } catch .init(rawValue: ELOOP) {
            throw .unsafeEntry(path: file, detail: "it is a symbolic link, which the copy never follows")
        } catch {
            throw .io(operation: "open", path: file, reason: error)
        }
        do throws(TransferError) {
            let status: FileStatus
            do {
                status = try fileSystem.status(opened)
            } catch {
                throw .io(operation: "inspect", path: file, reason: error)
            }
            guard status.kind == .regularFile else {
                throw .unsafeEntry(path: file, detail: "it is \(status.kind), not a regular file")
            }
            guard !writable || status.linkCount == 1 else {
                throw .unsafeEntry(
                    path: file, detail: "it has \(status.linkCount) hard links, so writing it would change another file"
                )
            }
            do {
                try fileSystem.clearNonBlocking(opened, flags)
            } catch {
                throw .io(operation: "open", path: file, reason: error)
            }
            return opened
        } catch {
            fileSystem.close(opened)
            throw error
        }
    }

    /// Gives the existing file `name`, found to hold its source's bytes (a rerun skips it), the metadata of
    /// `source` where it differs, as `rsync -a` does on a rerun: a source made private since its last copy
    /// makes its copy private too, and a copy skipped for its content gets the source's time, so the next
    /// rerun skips it unread. A copy already like its source is only looked at.
    func matchMetadata(of name: String, to source: FileStatus) throws(TransferError) {
        guard let descriptor = try openExisting(name, flags: O_RDONLY, writable: false) else { return }
        defer { fileSystem.close(descriptor) }
        do throws(Errno) {
            guard try !fileSystem.status(descriptor).hasMetadata(of: source, asUser: effectiveUser) else { return }
            try fileSystem.copyMetadata(to: descriptor, from: source)
        } catch {
            throw .io(operation: "set the mode and times of", path: path(of: name), reason: error)
        }
    }

    /// Renames `from` onto `to` atomically; whatever entry `to` named is replaced, not followed.
    func rename(_ from: String, to: String) throws(TransferError) {
        try checkName(from)
        try checkName(to)
        do {
            try fileSystem.renameAt(descriptor, from, to)
        } catch {
            // `cannot rename DIR/.statetui-partial.… onto DIR/name: …`, each path bounded on its own.
            throw .io(
                operation: "rename \(DisplayText.bounded(path(of: from))) onto",
                path: path(of: to), reason: error)
        }
    }

    /// Renames `from` onto `to` only if `from` still names the file `identity` (the one the caller holds
    /// open): a run never publishes a file it did not write.
    func rename(_ from: String, to: String, ifItIs identity: FileIdentity) throws(TransferError) {
        guard try status(of: from)?.identity == identity else {
            throw .unsafeEntry(path: path(of: from), detail: "it is no longer the file this copy wrote")
        }
        try rename(from, to: to)
    }

    /// Removes `name` only if it still names the file `identity`: a run never removes a file it did not
    /// write. Returns whether it did.
    @discardableResult
    func remove(_ name: String, ifItIs identity: FileIdentity) throws(TransferError) -> Bool {
        guard try status(of: name)?.identity == identity else { return false }
        try remove(name)
        return true
    }

    /// Removes the entry `name` (a symbolic link itself, never its target); nothing there is fine.
    func remove(_ name: String) throws(TransferError) {
        try checkName(name)
        do {
            try fileSystem.removeAt(descriptor, name)
        } catch .noSuchFile {
            return
        } catch {
            throw .io(operation: "remove", path: path(of: name), reason: error)
        }
    }

    /// Gives this directory the owner (as root), mode and times of `source`, as `cp -a` does once the
    /// directory's contents are copied, and the extended attributes (ACLs, a default ACL among them) of the
    /// directory at `attributesOf` when given, opened without following a symbolic link. Returns why those
    /// attributes could not all be copied (the caller warns); throws when the owner, mode or times cannot be set.
    @discardableResult
    public func copyMetadata(from source: FileStatus, attributesOf sourcePath: String? = nil) throws(TransferError)
        -> Errno?
    {
        var attributesFrom: Int32?
        var attributesFailure: Errno?
        if let sourcePath {
            do {
                attributesFrom = try fileSystem.open(sourcePath, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY, 0)
            } catch {
                attributesFailure = error
            }
        }
        defer { attributesFrom.map(fileSystem.close) }
        do {
            return try fileSystem.copyMetadata(to: descriptor, from: source, attributesFrom: attributesFrom)
                ?? attributesFailure
        } catch {
            throw .io(operation: "set the mode and times of", path: path, reason: error)
        }
    }

    /// What ``copySymbolicLink(_:target:source:attributesOf:overwrite:)`` and
    /// ``copySpecialFile(_:source:attributesOf:overwrite:)`` did: whether they made the entry (false: one like it
    /// was there), and why its extended attributes could not all be copied, if they could not (the caller warns).
    public typealias MadeAsIs = (made: Bool, attributesNotCopied: Errno?)

    /// Makes `name` a symbolic link to `target` with the owner (as root), the extended attributes of the link
    /// at `attributesOf` when given, and the times of `source`, as `cp -a` copies a link: never followed, its
    /// target copied as it is. A link already there with the same target is kept; any other entry is an
    /// existing file, replaced (atomically, by a rename) only with `overwrite`.
    @discardableResult
    public func copySymbolicLink(
        _ name: String, target: String, source: FileStatus, attributesOf: String? = nil, overwrite: Bool
    ) throws(TransferError) -> MadeAsIs {
        let descriptor = self.descriptor
        let fileSystem = self.fileSystem
        return try copyAsIs(
            name, source: source, attributesOf: attributesOf, overwrite: overwrite,
            operation: "create the symbolic link",
            isSame: { existing in
                existing.kind == .symbolicLink && (try? fileSystem.readLinkAt(descriptor, name)) == target
            },
            make: { newName throws(Errno) in try fileSystem.symbolicLinkAt(target, descriptor, newName) })
    }

    /// Makes `name` a FIFO, socket or device like `source` (`mknodat`, a device standing for the same device),
    /// with its owner (as root), the extended attributes of the entry at `attributesOf` when given, its mode and
    /// times, as `cp -a` and `rsync -a` copy one: never opened, so nothing waits for a FIFO's writer or touches
    /// a device. It is made private (`0600`) and given the source's mode afterwards, so it is never wider than
    /// the source. An entry of the same kind already there (a device: for the same device) is kept and given
    /// the source's metadata; any other is an existing file, replaced (atomically, by a rename) only with
    /// `overwrite`. Making a device needs privilege: the system's refusal is the failure (`Operation not
    /// permitted`).
    @discardableResult
    public func copySpecialFile(_ name: String, source: FileStatus, attributesOf: String? = nil, overwrite: Bool)
        throws(TransferError) -> MadeAsIs
    {
        guard let type = source.kind.nodeType else {
            throw .unsafeEntry(path: path(of: name), detail: "\(source.kind) is not made as a special file")
        }
        let descriptor = self.descriptor
        let fileSystem = self.fileSystem
        return try copyAsIs(
            name, source: source, attributesOf: attributesOf, overwrite: overwrite,
            operation: "create the \(source.nodeDescription)",
            isSame: { $0.isCopy(of: source) },
            make: { newName throws(Errno) in
                try fileSystem.makeNodeAt(descriptor, newName, UInt32(type) | 0o600, source.deviceNumber)
            })
    }

    /// Makes `name` with `make` unless the entry there `isSame` as what it would make, then gives it the
    /// metadata of `source` and the extended attributes of the entry at `attributesOf`
    /// (``FileSystem/copyMetadata(at:_:from:attributesOf:)``); any other entry there is replaced only with
    /// `overwrite` (``replacing(_:_:overwrite:operation:_:)``).
    private func copyAsIs(
        _ name: String, source: FileStatus, attributesOf: String?, overwrite: Bool, operation: String,
        isSame: (FileStatus) -> Bool, make: (String) throws(Errno) -> Void
    ) throws(TransferError) -> MadeAsIs {
        try checkNotReserved(name)
        let existing = try status(of: name)
        let same = existing.map(isSame) ?? false
        if !same {
            try replacing(name, existing, overwrite: overwrite, operation: operation, make)
        }
        let descriptor = self.descriptor
        let fileSystem = self.fileSystem
        var attributesNotCopied: Errno?
        try calling(name, "set the owner, mode and times of") { () throws(Errno) in
            attributesNotCopied = try fileSystem.copyMetadata(
                at: descriptor, name, from: source, attributesOf: attributesOf)
        }
        return (!same, attributesNotCopied)
    }

    /// Gives the file `existing` of `directory` the second name `name` here (`linkat`), so files that were
    /// hard links to each other in the source stay one file. With `copyOf`, the status of the source file
    /// both names stand for, `existing` must be its copy: for a regular file by the rule a rerun skips a copy by
    /// (its size and modification time), so a file whose copy did not complete (refused, failed, never started)
    /// is not given another name, which would then hold other bytes than its source; for a symbolic link,
    /// FIFO, socket or device, an entry of its kind (a device: for the same device). The same file there
    /// already is kept; any other entry is an existing file, replaced (atomically, by a rename) only with
    /// `overwrite`. Returns whether it made the link (false: the name already led to the file).
    @discardableResult
    public func link(
        _ name: String, to existing: String, in directory: DestinationDirectory, copyOf source: FileStatus? = nil,
        overwrite: Bool
    ) throws(TransferError) -> Bool {
        try checkNotReserved(name)
        guard let file = try directory.status(of: existing), file.kind != .directory else {
            // Its first name failed (said where it failed) or was left out.
            throw .unsafeEntry(
                path: path(of: name),
                detail: "it is the same file as \(DisplayText.bounded(directory.path(of: existing))), whose copy is "
                    + "not there to link to")
        }
        if let source, !file.isCopy(of: source) {
            throw .unsafeEntry(
                path: directory.path(of: existing),
                detail: "it is not a copy of its source (its copy did not complete), so "
                    + "\(DisplayText.bounded(path(of: name))) is not made a hard link to it")
        }
        let present = try status(of: name)
        if present?.identity == file.identity { return false }
        let descriptor = self.descriptor
        let fileSystem = self.fileSystem
        try replacing(name, present, overwrite: overwrite, operation: "link") { newName throws(Errno) in
            try fileSystem.linkAt(directory.descriptor, existing, descriptor, newName)
        }
        return true
    }

    /// Creates `name` with `make` (given the name to create): directly when nothing is there, else, with
    /// `overwrite` and unless a directory is there, under the staging name and renamed onto `name`.
    private func replacing(
        _ name: String, _ present: FileStatus?, overwrite: Bool, operation: String,
        _ make: (String) throws(Errno) -> Void
    ) throws(TransferError) {
        guard let present else {
            try calling(name, operation) { () throws(Errno) in try make(name) }
            return
        }
        guard present.kind != .directory else {
            // Not even with `overwrite`: so the advice to use it would mislead.
            throw .unsafeEntry(path: path(of: name), detail: "it is a directory, which a copy never replaces")
        }
        guard overwrite else { throw .destinationExists(path: path(of: name)) }
        let staged = StagedFile.partialName(for: name)
        try remove(staged)
        try calling(name, operation) { () throws(Errno) in try make(staged) }
        try rename(staged, to: name)
    }

    /// Refuses an entry of a source under a name the copy keeps for its journal or a partial: made, it could
    /// replace the directory's journal (with `overwrite`) or take its place, so that no file there could be
    /// copied (as a file of that name is refused, ``StagedFile/isReserved(_:)``).
    private func checkNotReserved(_ name: String) throws(TransferError) {
        guard !StagedFile.isReserved(name) else {
            throw .unsafeEntry(path: path(of: name), detail: StagedFile.reservedNameDetail)
        }
    }

    /// Runs `call`, naming `name` and the operation when it fails.
    private func calling(_ name: String, _ operation: String, _ call: () throws(Errno) -> Void) throws(TransferError) {
        do {
            try call()
        } catch {
            throw .writing(path(of: name), operation: operation, error)
        }
    }

    /// Makes the directory's entries (a rename, a new file) durable.
    func sync() throws(TransferError) {
        let fileSystem = self.fileSystem
        let descriptor = self.descriptor
        do {
            // Renames by many copies into this directory are made durable together (``SyncGroup``).
            try owner.syncs.sync { () throws(Errno) in try fileSystem.sync(descriptor) }
        } catch {
            throw .writing(path, operation: "sync directory", error)
        }
    }

    /// Whether ``syncFileSystem()`` can sync this directory's file system: it has a call that syncs all of it
    /// (`syncfs`).
    package var syncsFileSystem: Bool { fileSystem.syncFileSystem != nil }

    /// Makes everything written to this directory's file system durable (`syncfs`), where it has that call
    /// (``syncsFileSystem``); elsewhere the directory's own entries (``sync()``).
    package func syncFileSystem() throws(TransferError) {
        guard let syncFileSystem = fileSystem.syncFileSystem else { return try sync() }
        do {
            try syncFileSystem(descriptor)
        } catch {
            throw .writing(path, operation: "sync the file system of", error)
        }
    }

    /// The device this directory is on (its own status's), nil when its status cannot be read.
    package var device: UInt64? {
        (try? fileSystem.status(descriptor))?.identity.device
    }

    /// A name is one entry of this directory: not empty, not `.` or `..`, no `/` and no NUL (either
    /// would make `openat` reach beyond the directory or a different name).
    private func checkName(_ name: String) throws(TransferError) {
        guard !name.isEmpty, name != ".", name != "..",
            !name.containsUTF8Byte(where: { $0 == UInt8(ascii: "/") || $0 == 0 })
        else {
            throw .unsafeEntry(path: path(of: name), detail: "it is not a single file name inside the directory")
        }
    }
}

/// A descriptor closed (through the file system that opened it) when its last user goes away.
private final class OpenDescriptor: Sendable {
    let descriptor: Int32
    /// The directory's fsyncs, shared by every view of it.
    let syncs = SyncGroup()
    /// Set once the directory's file system refused an unnamed file (``DestinationDirectory/createUnnamed(within:)``),
    /// for every view of it: the copies after make named partials without asking again.
    let refusesUnnamed = Atomic(false)
    private let fileSystem: FileSystem

    init(_ descriptor: Int32, closedBy fileSystem: FileSystem) {
        self.descriptor = descriptor
        self.fileSystem = fileSystem
    }

    deinit {
        fileSystem.close(descriptor)
    }
}
