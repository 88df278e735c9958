import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system calls the copier and the journal make, as replaceable functions.
///
/// `FileSystem.posix` performs the real calls; tests replace single functions (a `write` that fails with
/// ENOSPC after N bytes, a `read` that records offsets) without touching the others, through ``calls``
/// (`fileSystem.calls.write = …`), and call them as members of the file system itself (`fileSystem.write(…)`).
///
/// The calls are held once, in storage the copies of a file system share until one of them replaces a call (copy
/// on write): a copy is one reference, where a value holding the calls themselves retained and released each of
/// them on every copy (six copies a file in a tree copy, 2% of its time) and made every object holding one over a
/// kilobyte (a copy job, allocated a file, outside the allocator's per-thread caches).
@dynamicMemberLookup
public struct FileSystem: Sendable {
    /// One replaceable function for each call, held by a ``FileSystem``.
    public struct Calls: Sendable {
        /// Opens a file by path (`open(2)`): the source, and the destination directory itself.
        public var open: @Sendable (_ path: String, _ flags: Int32, _ mode: UInt32) throws(Errno) -> Int32
        /// Opens a name inside an open directory (`openat(2)`): every file in the destination.
        public var openAt:
            @Sendable (_ directory: Int32, _ name: String, _ flags: Int32, _ mode: UInt32) throws(Errno) -> Int32
        /// Closes a descriptor; errors are ignored because nothing useful can follow them.
        public var close: @Sendable (_ descriptor: Int32) -> Void
        /// A second descriptor for the same open file (`fcntl(F_DUPFD_CLOEXEC)`).
        public var duplicate: @Sendable (_ descriptor: Int32) throws(Errno) -> Int32
        /// Clears `O_NONBLOCK` on a descriptor opened with it and `flags` (the flags given to `open`), keeping the
        /// file status flags among them (`O_APPEND`…): one `fcntl(F_SETFL)`, without reading the flags first.
        var clearNonBlocking: @Sendable (_ descriptor: Int32, _ flags: Int32) throws(Errno) -> Void
        /// Reads at an offset (`pread(2)`); returns the byte count, 0 at end of file.
        public var read:
            @Sendable (_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ offset: Int64)
                throws(Errno) -> Int
        /// Writes at an offset (`pwrite(2)`); returns the byte count, which may be short. Replacing it also
        /// drops ``writeGathered``, so that every write goes through the replacement.
        public var write:
            @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: Int64)
                throws(Errno) -> Int
        {
            didSet { writeGathered = nil }
        }
        /// Writes pieces one after another from an offset in one call (`pwritev(2)`); returns the byte count,
        /// which may be short. Only ``FileSystem/posix`` has it: nil, each piece goes through ``write``.
        package var writeGathered:
            (@Sendable (_ descriptor: Int32, _ pieces: [UnsafeRawBufferPointer], _ offset: Int64) throws(Errno) -> Int)?
        /// Appends at the end of a descriptor opened with `O_APPEND` (`write(2)`); returns the byte count.
        public var append: @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int
        /// Moves a descriptor's offset (`lseek(2)`); with `SEEK_DATA`/`SEEK_HOLE` finds a sparse file's data.
        public var seek: @Sendable (_ descriptor: Int32, _ offset: Int64, _ whence: Int32) throws(Errno) -> Int64
        /// Makes a file's data durable (`fsync(2)`).
        public var sync: @Sendable (_ descriptor: Int32) throws(Errno) -> Void
        /// Cuts or extends a file to a size (`ftruncate(2)`); extending leaves a hole.
        public var truncate: @Sendable (_ descriptor: Int32, _ size: Int64) throws(Errno) -> Void
        /// Describes an open file (`fstat(2)`).
        public var status: @Sendable (_ descriptor: Int32) throws(Errno) -> FileStatus
        /// Describes a path (`stat(2)`), following symbolic links.
        public var statusOfPath: @Sendable (_ path: String) throws(Errno) -> FileStatus
        /// Describes a name inside an open directory without following a symbolic link
        /// (`fstatat(2)` with `AT_SYMLINK_NOFOLLOW`).
        package var statusAt: @Sendable (_ directory: Int32, _ name: String) throws(Errno) -> FileStatus
        /// Renames atomically within one open directory (`renameat(2)`); replaces the entry at `to`
        /// (a symbolic link there is replaced, never followed).
        public var renameAt: @Sendable (_ directory: Int32, _ from: String, _ to: String) throws(Errno) -> Void
        /// Removes a name inside an open directory (`unlinkat(2)`); a symbolic link itself is removed.
        var removeAt: @Sendable (_ directory: Int32, _ name: String) throws(Errno) -> Void
        /// Checks access rights for the real user (`access(2)`, mode `W_OK | X_OK` etc.).
        public var access: @Sendable (_ path: String, _ mode: Int32) throws(Errno) -> Void
        /// Creates a directory inside an open directory (`mkdirat(2)`); a name already there is `EEXIST`.
        public var makeDirectoryAt: @Sendable (_ directory: Int32, _ name: String, _ mode: UInt32) throws(Errno) -> Void
        /// The names in an open directory, without `.` and `..`, at most `limit` of them (`readdir(3)` on a
        /// duplicate of the descriptor).
        public var entriesAt: @Sendable (_ directory: Int32, _ limit: Int) throws(Errno) -> [String]
        /// Takes the write lock on a whole open file (`fcntl(F_SETLK)`, or `F_SETLKW` to wait for it); fails with
        /// `EAGAIN`/`EACCES` when another process holds it and `wait` is false.
        package var lock: @Sendable (_ descriptor: Int32, _ wait: Bool) throws(Errno) -> Void
        /// The process that holds a lock on an open file that conflicts with ours (`fcntl(F_GETLK)`); nil when none.
        package var lockHolder: @Sendable (_ descriptor: Int32) throws(Errno) -> Int32?
        /// Sets an open file's permission bits (`fchmod(2)`).
        package var setPermissions: @Sendable (_ descriptor: Int32, _ permissions: UInt32) throws(Errno) -> Void
        /// Gives an open file an owner and group (`fchown(2)`).
        package var setOwner: @Sendable (_ descriptor: Int32, _ user: UInt32, _ group: UInt32) throws(Errno) -> Void
        /// The target of the symbolic link `name` inside an open directory (`readlinkat(2)`).
        package var readLinkAt: @Sendable (_ directory: Int32, _ name: String) throws(Errno) -> String
        /// Creates the symbolic link `name` to `target` inside an open directory (`symlinkat(2)`).
        package var symbolicLinkAt:
            @Sendable (_ target: String, _ directory: Int32, _ name: String) throws(Errno) -> Void
        /// Creates the FIFO, socket or device `name` inside an open directory (`mknodat(2)`): `mode` holds the type
        /// bits and the permissions, `device` the device a device file stands for.
        package var makeNodeAt:
            @Sendable (_ directory: Int32, _ name: String, _ mode: UInt32, _ device: UInt64) throws(Errno) -> Void
        /// Gives the file `name` of one open directory a second name in another (`linkat(2)`, links not followed).
        package var linkAt:
            @Sendable (_ fromDirectory: Int32, _ from: String, _ toDirectory: Int32, _ to: String) throws(Errno) -> Void
        /// Creates a new, empty regular file with no name in an open directory, open to read and write, with the
        /// permission bits `mode` (`openat` with Linux's `O_TMPFILE`): a crash leaves nothing behind, and the file
        /// gets its name at once, complete, with ``linkUnnamed``. Nil where the platform has none (or where
        /// ``linkUnnamed`` could not be made); it fails where the directory's file system has none
        /// (``UnnamedFiles/isUnsupported(_:)``).
        package var openUnnamed: (@Sendable (_ directory: Int32, _ mode: UInt32) throws(Errno) -> Int32)?
        /// Gives a file made by ``openUnnamed``, open as `descriptor`, the name `name` in an open directory: `linkat`
        /// of the descriptor itself (`AT_EMPTY_PATH`), or, on a kernel that allows that only with a privilege, of
        /// the descriptor's own entry under `/proc/self/fd` (``UnnamedFiles/LinkWay``). An entry already under
        /// `name`, even a symbolic link, fails with `EEXIST`: it is never replaced or followed.
        package var linkUnnamed:
            (@Sendable (_ descriptor: Int32, _ directory: Int32, _ name: String) throws(Errno) -> Void)?
        /// Gives the entry `name` of an open directory itself an owner and group (`fchownat` with
        /// `AT_SYMLINK_NOFOLLOW`: a symbolic link is changed, not what it leads to).
        package var setOwnerAt:
            @Sendable (_ directory: Int32, _ name: String, _ user: UInt32, _ group: UInt32) throws(Errno) -> Void
        /// Sets the permission bits of the entry `name` of an open directory itself (`fchmodat` with
        /// `AT_SYMLINK_NOFOLLOW`, which refuses a symbolic link rather than follow it).
        package var setPermissionsAt:
            @Sendable (_ directory: Int32, _ name: String, _ permissions: UInt32) throws(Errno) -> Void
        /// Sets the access and modification times of the entry `name` of an open directory itself (`utimensat`
        /// with `AT_SYMLINK_NOFOLLOW`).
        package var setTimesAt:
            @Sendable (_ directory: Int32, _ name: String, _ accessed: FileTime, _ modified: FileTime) throws(Errno) ->
                Void
        /// Copies every extended attribute of one open file to another (`flistxattr`, `fgetxattr`, `fsetxattr`), and
        /// removes a POSIX ACL the second inherited from its directory that the first does not have
        /// (`fremovexattr`); fails with the first error (`ENOTSUP` where the destination's file system has none).
        package var copyExtendedAttributes: @Sendable (_ source: Int32, _ destination: Int32) throws(Errno) -> Void
        /// Copies every extended attribute of the entry at `source` itself to the entry `name` of an open directory
        /// itself, neither a symbolic link followed (`llistxattr`, `lgetxattr`, `lsetxattr`, `lremovexattr`): what
        /// a symbolic link, FIFO, socket or device made by the copy gets (ACLs, security labels); fails with the
        /// first error.
        package var copyExtendedAttributesAt:
            @Sendable (_ source: String, _ directory: Int32, _ name: String) throws(Errno) -> Void
        /// Starts writing a range of an open file's data to storage without waiting for it
        /// (`sync_file_range(2)` with `SYNC_FILE_RANGE_WRITE`), so the `fsync` that follows has less left to
        /// wait for; makes nothing durable by itself, and does nothing where the call is missing.
        package var startWriteback: @Sendable (_ descriptor: Int32, _ offset: Int64, _ count: Int64) -> Void
        /// Makes everything written to the file system holding an open file durable, every file's data and
        /// metadata, with one flush of the device (`syncfs(2)`, Linux); nil where there is no such call. Copies of
        /// many small files committing at once make their partials durable with one call of it instead of an
        /// `fsync` each (``CopyJournal/commitTogether(_:then:)``).
        package var syncFileSystem: (@Sendable (_ descriptor: Int32) throws(Errno) -> Void)?
        /// Turns writes that go straight to storage (`O_DIRECT`: no copy into the page cache, whole aligned
        /// blocks only, see ``DirectWrites``) on or off for an open file; returns whether they are on after
        /// the call (false where the file system or the platform has none).
        package var setDirectWrites: @Sendable (_ descriptor: Int32, _ on: Bool) -> Bool
        /// Sets an open file's access and modification times (`futimens(2)`).
        package var setTimes:
            @Sendable (_ descriptor: Int32, _ accessed: FileTime, _ modified: FileTime) throws(Errno) -> Void

        /// Builds a file system from its functions.
        public init(
            open: @escaping @Sendable (String, Int32, UInt32) throws(Errno) -> Int32,
            openAt: @escaping @Sendable (Int32, String, Int32, UInt32) throws(Errno) -> Int32,
            close: @escaping @Sendable (Int32) -> Void,
            duplicate: @escaping @Sendable (Int32) throws(Errno) -> Int32,
            clearNonBlocking: @escaping @Sendable (Int32, Int32) throws(Errno) -> Void,
            read: @escaping @Sendable (Int32, UnsafeMutableRawBufferPointer, Int64) throws(Errno) -> Int,
            write: @escaping @Sendable (Int32, UnsafeRawBufferPointer, Int64) throws(Errno) -> Int,
            append: @escaping @Sendable (Int32, UnsafeRawBufferPointer) throws(Errno) -> Int,
            seek: @escaping @Sendable (Int32, Int64, Int32) throws(Errno) -> Int64,
            sync: @escaping @Sendable (Int32) throws(Errno) -> Void,
            truncate: @escaping @Sendable (Int32, Int64) throws(Errno) -> Void,
            status: @escaping @Sendable (Int32) throws(Errno) -> FileStatus,
            statusOfPath: @escaping @Sendable (String) throws(Errno) -> FileStatus,
            statusAt: @escaping @Sendable (Int32, String) throws(Errno) -> FileStatus,
            renameAt: @escaping @Sendable (Int32, String, String) throws(Errno) -> Void,
            removeAt: @escaping @Sendable (Int32, String) throws(Errno) -> Void,
            access: @escaping @Sendable (String, Int32) throws(Errno) -> Void,
            makeDirectoryAt: @escaping @Sendable (Int32, String, UInt32) throws(Errno) -> Void,
            entriesAt: @escaping @Sendable (Int32, Int) throws(Errno) -> [String]
        ) {
            self.lock = FileSystem.posixLock
            self.lockHolder = FileSystem.posixLockHolder
            self.setPermissions = FileSystem.posixSetPermissions
            self.readLinkAt = FileSystem.posixReadLinkAt
            self.symbolicLinkAt = FileSystem.posixSymbolicLinkAt
            self.linkAt = FileSystem.posixLinkAt
            self.makeNodeAt = { directory, name, mode, device throws(Errno) in
                _ = try FileName.withCString(name) { name throws(Errno) in
                    try retryingInterrupts { mknodat(directory, name, mode_t(mode), dev_t(device)) }
                }
            }
            self.setOwnerAt = { directory, name, user, group throws(Errno) in
                _ = try FileName.withCString(name) { name throws(Errno) in
                    try retryingInterrupts { fchownat(directory, name, uid_t(user), gid_t(group), AT_SYMLINK_NOFOLLOW) }
                }
            }
            self.setPermissionsAt = { directory, name, permissions throws(Errno) in
                _ = try FileName.withCString(name) { name throws(Errno) in
                    try retryingInterrupts { fchmodat(directory, name, mode_t(permissions), AT_SYMLINK_NOFOLLOW) }
                }
            }
            self.setTimesAt = { directory, name, accessed, modified throws(Errno) in
                _ = try FileName.withCString(name) { name throws(Errno) in
                    try retryingInterrupts {
                        utimensat(directory, name, timespecs(accessed, modified), AT_SYMLINK_NOFOLLOW)
                    }
                }
            }
            self.copyExtendedAttributes = { source, destination throws(Errno) in
                try ExtendedAttributes.copy(from: source, to: destination)
            }
            self.copyExtendedAttributesAt = { source, directory, name throws(Errno) in
                try ExtendedAttributes.copy(from: source, to: directory, name)
            }
            self.setOwner = { descriptor, user, group throws(Errno) in
                _ = try retryingInterrupts { fchown(descriptor, uid_t(user), gid_t(group)) }
            }
            self.startWriteback = { descriptor, offset, count in
                Writeback.start(descriptor, offset: offset, count: count)
            }
            self.syncFileSystem = Writeback.syncFileSystem
            (self.openUnnamed, self.linkUnnamed) = UnnamedFiles.calls
            self.setDirectWrites = { descriptor, on in DirectWrites.set(descriptor, on) }
            self.setTimes = { descriptor, accessed, modified throws(Errno) in
                _ = try retryingInterrupts { futimens(descriptor, timespecs(accessed, modified)) }
            }
            self.open = open
            self.openAt = openAt
            self.close = close
            self.duplicate = duplicate
            self.clearNonBlocking = clearNonBlocking
            self.read = read
            self.write = write
            self.append = append
            self.seek = seek
            self.sync = sync
            self.truncate = truncate
            self.status = status
            self.statusOfPath = statusOfPath
            self.statusAt = statusAt
            self.renameAt = renameAt
            self.removeAt = removeAt
            self.access = access
            self.makeDirectoryAt = makeDirectoryAt
            self.entriesAt = entriesAt
        }
    }

    /// The storage the copies of a file system share.
    @usableFromInline
    final class Box: @unchecked Sendable {
        // `@unchecked`: ``FileSystem`` changes `calls` only through a box no other value references (copy on
        // write, ``FileSystem/calls``), so a box that more than one value or thread can see is never written.
        // Unchecked exclusivity: no access to it overlaps another (a read copies a call out; a write is by the
        // one value holding the box).
        @exclusivity(unchecked) @usableFromInline var calls: Calls

        init(_ calls: Calls) {
            self.calls = calls
        }
    }

    @usableFromInline var box: Box

    /// A file system making `calls`.
    public init(_ calls: Calls) {
        box = Box(calls)
    }

    /// The calls this file system makes; replacing one (`fileSystem.calls.write = …`) changes this value only, its
    /// storage copied first when another value shares it.
    public var calls: Calls {
        get { box.calls }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.calls) }
            yield &box.calls
        }
        set {
            if isKnownUniquelyReferenced(&box) { box.calls = newValue } else { box = Box(newValue) }
        }
    }

    /// One of the calls, as a member of the file system (`fileSystem.read(descriptor, buffer, offset)`).
    @inlinable
    public subscript<Call>(dynamicMember call: KeyPath<Calls, Call>) -> Call {
        box.calls[keyPath: call]
    }

    // The calls whose names the C library also declares, in a shape a call to them could match, are members of
    // their own: a call written bare in an extension of the file system (`close(descriptor)`) sees no dynamic
    // member, and would otherwise reach the C library's function instead of this file system's.

    /// Closes a descriptor (``Calls/close``).
    public func close(_ descriptor: Int32) {
        box.calls.close(descriptor)
    }

    /// Opens a file by path (``Calls/open``).
    public func open(_ path: String, _ flags: Int32, _ mode: UInt32) throws(Errno) -> Int32 {
        try box.calls.open(path, flags, mode)
    }

    /// Checks access rights for the real user (``Calls/access``).
    public func access(_ path: String, _ mode: Int32) throws(Errno) {
        try box.calls.access(path, mode)
    }

    /// The real POSIX calls, retried on EINTR; every descriptor is opened close-on-exec.
    public static let posix: FileSystem = {
        var calls = posixCalls
        calls.writeGathered = { descriptor, pieces, offset throws(Errno) in
            let vectors = pieces.map {
                iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count)
            }
            return try vectors.withUnsafeBufferPointer { vectors throws(Errno) in
                try retryingInterrupts { pwritev(descriptor, vectors.baseAddress, Int32(vectors.count), off_t(offset)) }
            }
        }
        return FileSystem(calls)
    }()

    /// The calls of ``posix`` but for gathered writes, which no initialiser takes (a file system built
    /// with its own `write` gets none, so every write goes through that one).
    private static let posixCalls = Calls(
        open: { path, flags, mode throws(Errno) in
            try FileName.withCString(path) { path throws(Errno) in
                try resolvingLongPath(path) { directory, name throws(Errno) in
                    try retryingInterrupts { openat(directory, name, flags | O_CLOEXEC, mode_t(mode)) }
                }
            }
        },
        openAt: { directory, name, flags, mode throws(Errno) in
            try FileName.withCString(name) { name throws(Errno) in
                try retryingInterrupts { openat(directory, name, flags | O_CLOEXEC, mode_t(mode)) }
            }
        },
        close: { descriptor in _ = Glibc.close(descriptor) },
        duplicate: { descriptor throws(Errno) in
            try retryingInterrupts { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }
        },
        clearNonBlocking: { descriptor, flags throws(Errno) in
            // F_SETFL changes only the status flags; the access mode and creation flags among `flags` are ignored.
            _ = try retryingInterrupts { fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        },
        read: { descriptor, buffer, offset throws(Errno) in
            try retryingInterrupts { pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset)) }
        },
        write: { descriptor, bytes, offset throws(Errno) in
            try retryingInterrupts { pwrite(descriptor, bytes.baseAddress, bytes.count, off_t(offset)) }
        },
        append: { descriptor, bytes throws(Errno) in
            try retryingInterrupts { Glibc.write(descriptor, bytes.baseAddress, bytes.count) }
        },
        seek: { descriptor, offset, whence throws(Errno) in
            Int64(try retryingInterrupts { lseek(descriptor, off_t(offset), whence) })
        },
        sync: { descriptor throws(Errno) in
            _ = try retryingInterrupts { fsync(descriptor) }
        },
        truncate: { descriptor, size throws(Errno) in
            _ = try retryingInterrupts { ftruncate(descriptor, off_t(size)) }
        },
        status: { descriptor throws(Errno) in
            var raw = stat()
            _ = try retryingInterrupts { fstat(descriptor, &raw) }
            return FileStatus(raw)
        },
        statusOfPath: { path throws(Errno) in
            var raw = stat()
            _ = try FileName.withCString(path) { path throws(Errno) in
                try resolvingLongPath(path) { directory, name throws(Errno) in
                    try retryingInterrupts { fstatat(directory, name, &raw, 0) }
                }
            }
            return FileStatus(raw)
        },
        statusAt: { directory, name throws(Errno) in
            var raw = stat()
            _ = try FileName.withCString(name) { name throws(Errno) in
                try resolvingLongPath(name, from: directory) { directory, name throws(Errno) in
                    try retryingInterrupts { fstatat(directory, name, &raw, AT_SYMLINK_NOFOLLOW) }
                }
            }
            return FileStatus(raw)
        },
        renameAt: { directory, from, to throws(Errno) in
            _ = try FileName.withCString(from) { from throws(Errno) in
                try FileName.withCString(to) { to throws(Errno) in
                    try retryingInterrupts { renameat(directory, from, directory, to) }
                }
            }
        },
        removeAt: { directory, name throws(Errno) in
            _ = try FileName.withCString(name) { name throws(Errno) in
                try retryingInterrupts { unlinkat(directory, name, 0) }
            }
        },
        access: { path, mode throws(Errno) in
            _ = try FileName.withCString(path) { path throws(Errno) in
                try retryingInterrupts { Glibc.access(path, mode) }
            }
        },
        makeDirectoryAt: { directory, name, mode throws(Errno) in
            _ = try FileName.withCString(name) { name throws(Errno) in
                try retryingInterrupts { mkdirat(directory, name, mode_t(mode)) }
            }
        },
        entriesAt: { directory, limit throws(Errno) in
            // fdopendir owns the descriptor it is given, so it gets a duplicate, read from the start.
            let duplicate = try retryingInterrupts { fcntl(directory, F_DUPFD_CLOEXEC, 0) }
            guard lseek(duplicate, 0, SEEK_SET) >= 0, let stream = fdopendir(duplicate) else {
                let error = Errno.current
                _ = Glibc.close(duplicate)
                throw error
            }
            defer { closedir(stream) }
            rewinddir(stream)
            var names: [String] = []
            errno = 0
            while names.count < limit, let entry = readdir(stream) {
                // Bytes, not UTF-8: a name that is not valid UTF-8 is kept as it is (``FileName``).
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in FileName.string(raw.prefix { $0 != 0 }) }
                if name != "." && name != ".." { names.append(name) }
            }
            if errno != 0 { throw Errno.current }
            return names
        })
}

/// Runs `call` on `path`, relative to `start` (`AT_FDCWD`: the working directory), in a form one system call takes
/// whatever the path's length: `(start, path)` when it is shorter than `PATH_MAX`; else the directory holding its
/// last component, opened a piece of fewer than `PATH_MAX` bytes at a time (`O_PATH`, each piece's links followed
/// as one call would follow them), and that component. So a file of a tree deeper than `PATH_MAX` allows in one
/// path (`cp -a` copies those) is opened and examined as any other; only its last component is not followed when
/// `call` says so.
func resolvingLongPath<Result>(
    _ path: UnsafePointer<CChar>, from start: Int32 = AT_FDCWD,
    _ call: (_ directory: Int32, _ name: UnsafePointer<CChar>) throws(Errno) -> Result
) throws(Errno) -> Result {
    let length = strlen(path)
    guard length >= Int(PATH_MAX) else { return try call(start, path) }
    let bytes = UnsafeBufferPointer(start: path, count: length)
    let slash = CChar(UInt8(ascii: "/"))
    guard let last = bytes.lastIndex(of: slash), last + 1 < length else { throw Errno(rawValue: ENAMETOOLONG) }
    // The directory part: everything before the last slash, or the root itself for `/NAME`.
    let parentEnd = max(last, 1)
    var opened: Int32?
    defer { if let opened { _ = Glibc.close(opened) } }
    var offset = 0
    while offset < parentEnd {
        // The longest run of whole components from `offset` that fits, or everything up to the name.
        var end = parentEnd
        if end - offset >= Int(PATH_MAX) {
            guard let cut = bytes[offset..<(offset + Int(PATH_MAX) - 1)].lastIndex(of: slash), cut > offset else {
                throw Errno(rawValue: ENAMETOOLONG)
            }
            end = cut
        }
        let piece = Array(bytes[offset..<end]) + [0]
        let next = try piece.withUnsafeBufferPointer { piece throws(Errno) in
            try retryingInterrupts {
                openat(opened ?? start, piece.baseAddress!, openPathOnly | O_DIRECTORY | O_CLOEXEC)
            }
        }
        if let opened { _ = Glibc.close(opened) }
        opened = next
        offset = end + 1
        // Slashes that repeat are one: the next piece is relative to the directory just opened.
        while offset < parentEnd && bytes[offset] == slash { offset += 1 }
    }
    return try call(opened ?? start, path + last + 1)
}

extension FileSystem {
    /// The whole file, for a write lock or the question who holds one.
    private static func wholeFile(_ type: Int32) -> flock {
        var region = flock()
        region.l_type = Int16(type)
        region.l_whence = Int16(SEEK_SET)
        region.l_start = 0
        region.l_len = 0
        return region
    }

    /// A process-associated record lock, not an OFD one, so that the holder's pid can be named (`F_OFD_GETLK`
    /// reports -1): the journal is the only descriptor a process opens on its file, so the POSIX rule that
    /// closing any descriptor of the file drops the lock never bites, and a crash or kill -9 drops it too.
    private static let posixLock: @Sendable (Int32, Bool) throws(Errno) -> Void = { descriptor, wait throws(Errno) in
        var region = wholeFile(Int32(F_WRLCK))
        _ = try retryingInterrupts { fcntl(descriptor, wait ? F_SETLKW : F_SETLK, &region) }
    }

    private static let posixLockHolder: @Sendable (Int32) throws(Errno) -> Int32? = { descriptor throws(Errno) in
        var region = wholeFile(Int32(F_WRLCK))
        _ = try retryingInterrupts { fcntl(descriptor, F_GETLK, &region) }
        return region.l_type == Int16(F_UNLCK) ? nil : region.l_pid
    }

    private static let posixSetPermissions: @Sendable (Int32, UInt32) throws(Errno) -> Void = {
        descriptor, permissions throws(Errno) in
        _ = try retryingInterrupts { fchmod(descriptor, mode_t(permissions)) }
    }

    /// The target of the symbolic link `name` in `directory`, its bytes kept as they are (``FileName``).
    private static let posixReadLinkAt: @Sendable (Int32, String) throws(Errno) -> String = {
        directory, name throws(Errno) in
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try FileName.withCString(name) { name throws(Errno) in
            try resolvingLongPath(name, from: directory) { directory, name throws(Errno) in
                try retryingInterrupts { readlinkat(directory, name, &buffer, buffer.count - 1) }
            }
        }
        return FileName.string(buffer[..<count].lazy.map { UInt8(bitPattern: $0) })
    }

    private static let posixSymbolicLinkAt: @Sendable (String, Int32, String) throws(Errno) -> Void = {
        target, directory, name throws(Errno) in
        _ = try FileName.withCString(target) { target throws(Errno) in
            try FileName.withCString(name) { name throws(Errno) in
                try retryingInterrupts { symlinkat(target, directory, name) }
            }
        }
    }

    private static let posixLinkAt: @Sendable (Int32, String, Int32, String) throws(Errno) -> Void = {
        fromDirectory, from, toDirectory, to throws(Errno) in
        _ = try FileName.withCString(from) { from throws(Errno) in
            try FileName.withCString(to) { to throws(Errno) in
                try retryingInterrupts { linkat(fromDirectory, from, toDirectory, to, 0) }
            }
        }
    }

    /// Gives the open file or directory `descriptor` the metadata of `source` as `cp -a` does: owner and group
    /// when running as root (first, since a change of owner clears setuid, setgid and file capabilities), then
    /// the extended attributes of the open `attributesFrom` when given (file capabilities, `security.capability`,
    /// among them), then the permission bits, then the access and modification times (last, since nothing
    /// after them may touch the file). Returns why the extended attributes could not all be set (the caller
    /// warns: the rest is kept); throws when the owner, mode or times cannot be.
    ///
    /// Not as root, the copy belongs to the user who runs it: its group is the source's where the user may
    /// give it (one of the user's groups), and setuid and setgid stay only with the owner and group they were
    /// given for (``FileStatus/permissionsKept(byUser:groupKept:)``), so a copy never lets others run as its copier.
    ///
    /// `current` is the file's status as the caller read it just before (a partial this copy wrote): an owner and
    /// group it already has are not given again, as `cp` does not give them (a system call a file of a tree fewer).
    /// The mode is always set: extended attributes copied before it (an access ACL) may have changed it.
    @discardableResult
    func copyMetadata(
        to descriptor: Int32, from source: FileStatus, attributesFrom: Int32? = nil, current: FileStatus? = nil
    ) throws(Errno) -> Errno? {
        try copyMetadata(
            from: source, current: current,
            setOwner: { user, group throws(Errno) in try self.setOwner(descriptor, user, group) },
            copyAttributes: {
                guard let attributesFrom else { return nil }
                return Self.failure { () throws(Errno) in try self.copyExtendedAttributes(attributesFrom, descriptor) }
            },
            setPermissions: { permissions throws(Errno) in try self.setPermissions(descriptor, permissions) },
            setTimes: { accessed, modified throws(Errno) in try self.setTimes(descriptor, accessed, modified) })
    }

    /// Gives the entry `name` of the open `directory` itself (a symbolic link, FIFO, socket or device the copy
    /// made; a link is never followed) the metadata of `source` as ``copyMetadata(to:from:attributesFrom:)``
    /// gives a file, in the same order: owner, the extended attributes of the entry at `attributesOf` itself
    /// when given, permission bits (but for a symbolic link, which has none), times. Returns why the extended
    /// attributes could not all be set; throws when the owner, mode or times cannot be.
    @discardableResult
    package func copyMetadata(at directory: Int32, _ name: String, from source: FileStatus, attributesOf: String? = nil)
        throws(Errno) -> Errno?
    {
        let isLink = source.kind == .symbolicLink
        return try copyMetadata(
            from: source,
            setOwner: { user, group throws(Errno) in try self.setOwnerAt(directory, name, user, group) },
            copyAttributes: {
                guard let attributesOf else { return nil }
                return Self.failure { () throws(Errno) in
                    try self.copyExtendedAttributesAt(attributesOf, directory, name)
                }
            },
            setPermissions: { permissions throws(Errno) in
                if !isLink { try self.setPermissionsAt(directory, name, permissions) }
            },
            setTimes: { accessed, modified throws(Errno) in try self.setTimesAt(directory, name, accessed, modified) })
    }

    /// The error `call` throws, nil when it succeeds.
    private static func failure(_ call: () throws(Errno) -> Void) -> Errno? {
        do {
            try call()
            return nil
        } catch {
            return error
        }
    }

    /// The order and the rules of a copy's metadata, whatever it is set through: owner and group when running
    /// as root (first, since a change of owner clears setuid, setgid and file capabilities), else the source's
    /// group where the user may give it; then `copyAttributes`, whose failure is returned, not thrown; then
    /// `setPermissions` with the bits the copy keeps (``FileStatus/permissionsKept(byUser:groupKept:)``, not as
    /// root); then the times, last.
    private func copyMetadata(
        from source: FileStatus, current: FileStatus? = nil, setOwner: (UInt32, UInt32) throws(Errno) -> Void,
        copyAttributes: () -> Errno?, setPermissions: (UInt32) throws(Errno) -> Void,
        setTimes: (FileTime, FileTime) throws(Errno) -> Void
    ) throws(Errno) -> Errno? {
        var permissions = source.permissions
        let groupHeld = current?.group == source.group
        if runsAsRoot {
            if !groupHeld || current?.user != source.user { try setOwner(source.user, source.group) }
        } else {
            let groupKept = groupHeld || (try? setOwner(Self.unchangedOwner, source.group)) != nil
            permissions = source.permissionsKept(byUser: effectiveUser, groupKept: groupKept)
        }
        let attributesFailure = copyAttributes()
        try setPermissions(permissions)
        try setTimes(source.accessed, source.modified)
        return attributesFailure
    }

    /// The owner or group `fchown` leaves as it is (`(uid_t) -1`).
    static let unchangedOwner = UInt32.max

    /// Writes all of `bytes` at `offset`, continuing after short writes.
    func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[done...])
            let count = try self.write(descriptor, rest, offset + Int64(done))
            // A zero-byte write of a non-empty buffer would loop forever; the kernel means "no room".
            guard count > 0 else { throw Errno.noSpace }
            done += count
        }
    }

    /// Writes `pieces` one after another from `offset`, in one call where the file system has
    /// ``writeGathered`` (a direct write of several pieces then keeps several requests at the device at
    /// once), continuing after short writes.
    func writeAll(_ descriptor: Int32, _ pieces: [UnsafeRawBufferPointer], at offset: Int64) throws(Errno) {
        var written = 0
        if pieces.count > 1, let writeGathered = self.writeGathered {
            written = try writeGathered(descriptor, pieces, offset)
            guard written > 0 else { throw Errno.noSpace }
        }
        // Whatever a short gathered write left, piece by piece.
        var position = offset
        for piece in pieces {
            let skipped = min(written, piece.count)
            written -= skipped
            if skipped < piece.count {
                try writeAll(
                    descriptor, UnsafeRawBufferPointer(rebasing: piece[skipped...]), at: position + Int64(skipped))
            }
            position += Int64(piece.count)
        }
    }

    /// Appends all of `bytes`, continuing after short writes.
    func appendAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let count = try self.append(descriptor, UnsafeRawBufferPointer(rebasing: bytes[done...]))
            guard count > 0 else { throw Errno.noSpace }
            done += count
        }
    }

    /// Appends all of `bytes`, continuing after short writes.
    func appendAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(Errno) {
        let result: Result<Void, Errno> = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try appendAll(descriptor, raw) }
        }
        try result.get()
    }

    /// The data or hole run of the open file `descriptor` at `offset` (`SEEK_DATA`/`SEEK_HOLE`), cut at
    /// `size`. Where the file system cannot tell, everything is data; past the last data everything is a
    /// hole (a file that shrank meanwhile is caught by whoever checks its size afterwards).
    func segment(of descriptor: Int32, at offset: Int64, size: Int64) -> FileSegment {
        do throws(Errno) {
            let data = try self.seek(descriptor, offset, seekData)
            if data > offset {
                return FileSegment(isHole: true, end: min(data, size))
            }
            let hole = try self.seek(descriptor, offset, seekHole)
            return FileSegment(isHole: false, end: min(max(hole, offset + 1), size))
        } catch .init(rawValue: ENXIO) {
            return FileSegment(isHole: true, end: size)
        } catch {
            return FileSegment(isHole: false, end: size)
        }
    }

    /// Reads until `buffer` is full or the file ends; returns the byte count.
    func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
        throws(Errno) -> Int
    {
        var done = 0
        while done < buffer.count {
            let count = try self.read(
                descriptor, UnsafeMutableRawBufferPointer(rebasing: buffer[done...]),
                offset + Int64(done))
            if count == 0 { break }
            done += count
        }
        return done
    }
}

/// `flistxattr`, `fgetxattr`, `fsetxattr` and `fremovexattr`, and their `l` forms on paths (which never follow
/// the path's last component), which the Glibc module does not import (`<sys/xattr.h>` is not in its umbrella):
/// resolved once from the C library already loaded, with their C signatures.
private enum ExtendedAttributes {
    typealias ListOpen = @Sendable @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int
    typealias GetOpen = @Sendable @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    typealias SetOpen = @Sendable @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
    typealias RemoveOpen = @Sendable @convention(c) (Int32, UnsafePointer<CChar>) -> Int32
    typealias ListPath = @Sendable @convention(c) (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>?, Int) -> Int
    typealias GetPath =
        @Sendable @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    typealias SetPath =
        @Sendable @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
    typealias RemovePath = @Sendable @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32

    /// The four calls on one kind of target: an open descriptor, or a path.
    private struct Calls<Target>: Sendable {
        let list: @Sendable (Target, UnsafeMutablePointer<CChar>?, Int) -> Int
        let get: @Sendable (Target, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
        let set: @Sendable (Target, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
        let remove: @Sendable (Target, UnsafePointer<CChar>) -> Int32

        /// The names of the attributes of `target`, each NUL-terminated.
        func names(of target: Target) throws(Errno) -> [[CChar]] {
            let size = try retryingInterrupts { list(target, nil, 0) }
            guard size > 0 else { return [] }
            var names = [CChar](repeating: 0, count: size)
            let listed = try retryingInterrupts { list(target, &names, names.count) }
            // The list is NUL-terminated names one after the other.
            return names[..<listed].split(separator: 0).map { Array($0) + [0] }
        }

        /// Copies every attribute of `source` to `destination`, and removes from `destination` an ACL it
        /// inherited that `source` does not have, so its access is its source's, never wider (as `cp -a` does).
        func copy(from source: Target, to destination: Target) throws(Errno) {
            let sourceNames = try names(of: source)
            for key in sourceNames {
                let length = try retryingInterrupts { get(source, key, nil, 0) }
                var value = [UInt8](repeating: 0, count: max(length, 1))
                let read = try retryingInterrupts { get(source, key, &value, value.count) }
                _ = try retryingInterrupts { set(destination, key, value, read, 0) }
            }
            let inherited = try names(of: destination).filter { inheritedACLs.contains($0) }
            for key in inherited where !sourceNames.contains(key) {
                _ = try retryingInterrupts { remove(destination, key) }
            }
        }
    }

    /// Written once, by the static initializer, and only read after: nothing can race on it.
    nonisolated(unsafe) private static let library = dlopen(nil, RTLD_NOW)
    private static let onDescriptors: Calls<Int32>? = {
        guard let list = symbol("flistxattr", as: ListOpen.self), let get = symbol("fgetxattr", as: GetOpen.self),
            let set = symbol("fsetxattr", as: SetOpen.self), let remove = symbol("fremovexattr", as: RemoveOpen.self)
        else { return nil }
        return Calls(list: list, get: get, set: set, remove: remove)
    }()
    private static let onPaths: Calls<UnsafePointer<CChar>>? = {
        guard let list = symbol("llistxattr", as: ListPath.self), let get = symbol("lgetxattr", as: GetPath.self),
            let set = symbol("lsetxattr", as: SetPath.self), let remove = symbol("lremovexattr", as: RemovePath.self)
        else { return nil }
        return Calls(list: list, get: get, set: set, remove: remove)
    }()

    /// The POSIX ACLs a new file or directory inherits from a parent with a default ACL (a file its access
    /// ACL, a directory both).
    private static let inheritedACLs: [[CChar]] = ["system.posix_acl_access", "system.posix_acl_default"].map {
        Array($0.utf8CString)
    }

    private static func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
        dlsym(library, name).map { unsafeBitCast($0, to: type) }
    }

    /// Copies every attribute of the open `source` to the open `destination` (``Calls/copy(from:to:)``);
    /// `ENOTSUP` when the calls are missing.
    static func copy(from source: Int32, to destination: Int32) throws(Errno) {
        guard let onDescriptors else { throw Errno(rawValue: ENOTSUP) }
        try onDescriptors.copy(from: source, to: destination)
    }

    /// Copies every attribute of the entry at `source` itself (a symbolic link is not followed) to the entry
    /// `name` of the open directory `directory` itself, reached through the directory's descriptor
    /// (`/proc/self/fd`), never through a path someone could change; `ENOTSUP` without those calls or `/proc`.
    static func copy(from source: String, to directory: Int32, _ name: String) throws(Errno) {
        #if os(Linux)
        guard let onPaths else { throw Errno(rawValue: ENOTSUP) }
        try FileName.withCString(source) { source throws(Errno) in
            try FileName.withCString("/proc/self/fd/\(directory)/" + name) { destination throws(Errno) in
                // A source too long for one call is reached through its own directory's descriptor too.
                try resolvingLongPath(source) { from, fromName throws(Errno) in
                    guard from != AT_FDCWD else { return try onPaths.copy(from: fromName, to: destination) }
                    let reached =
                        Array("/proc/self/fd/\(from)/".utf8CString.dropLast())
                        + UnsafeBufferPointer(start: fromName, count: strlen(fromName) + 1)
                    return try reached.withUnsafeBufferPointer { reached throws(Errno) in
                        try onPaths.copy(from: reached.baseAddress!, to: destination)
                    }
                }
            }
        }
        #else
        throw Errno(rawValue: ENOTSUP)
        #endif
    }
}

/// `sync_file_range` and `syncfs`, which the Glibc module does not import (declared only under `_GNU_SOURCE`):
/// resolved once from the C library already loaded, with their C signatures.
private enum Writeback {
    typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
    typealias SyncFS = @convention(c) (Int32) -> Int32

    /// Written once, by the static initializer, and only read after: nothing can race on it.
    nonisolated(unsafe) private static let library = dlopen(nil, RTLD_NOW)
    private static let syncFileRange = dlsym(library, "sync_file_range").map {
        unsafeBitCast($0, to: SyncFileRange.self)
    }
    /// `SYNC_FILE_RANGE_WRITE` (`<fcntl.h>`): start writing the dirty pages of the range, wait for nothing.
    private static let startWrite: UInt32 = 2

    static func start(_ descriptor: Int32, offset: Int64, count: Int64) {
        _ = syncFileRange?(descriptor, offset, count, startWrite)
    }

    private static let syncFS = dlsym(library, "syncfs").map { unsafeBitCast($0, to: SyncFS.self) }

    /// `syncfs` of the file system holding a descriptor, retried on EINTR; nil where the C library has none.
    static var syncFileSystem: (@Sendable (Int32) throws(Errno) -> Void)? {
        guard let call = syncFS else { return nil }
        return { descriptor throws(Errno) in _ = try retryingInterrupts { call(descriptor) } }
    }
}

/// Files made with no name and named once complete (Linux's `O_TMPFILE`, then `linkat`), as a copy of a small file
/// is: its directory is changed once, by the link, where a named partial changed it twice (its creation, with the
/// new inode's allocation under the directory's lock, and its rename), and a crash leaves no partial behind.
package enum UnnamedFiles {
    /// The calls of ``FileSystem/Calls/openUnnamed`` and ``FileSystem/Calls/linkUnnamed``; both nil off Linux, and
    /// where the descriptors' entries cannot be reached (`/proc` not mounted), checked once.
    static let calls:
        (
            open: (@Sendable (Int32, UInt32) throws(Errno) -> Int32)?,
            link: (@Sendable (Int32, Int32, String) throws(Errno) -> Void)?
        ) = {
            #if os(Linux)
            guard Glibc.access(descriptors, X_OK) == 0 else { return (nil, nil) }
            return (
                { directory, mode throws(Errno) in
                    try retryingInterrupts { openat(directory, ".", flag | O_RDWR | O_CLOEXEC, mode_t(mode)) }
                },
                { descriptor, directory, name throws(Errno) in
                    guard emptyPathLinks.load(ordering: .relaxed) else {
                        return try link(descriptor, in: directory, as: name, through: .descriptorsEntry)
                    }
                    do throws(Errno) {
                        try link(descriptor, in: directory, as: name, through: .emptyPath)
                    } catch let refused where refused.rawValue != EEXIST {
                        // A kernel before 6.10 names a file by its descriptor only for a process with
                        // CAP_DAC_READ_SEARCH (ENOENT otherwise), and a security module may refuse it too: the
                        // descriptor's entry is tried, and serves from then on once it named the file. A failure
                        // both ways (a full disk) is the entry's.
                        try link(descriptor, in: directory, as: name, through: .descriptorsEntry)
                        emptyPathLinks.store(false, ordering: .relaxed)
                    }
                }
            )
            #else
            return (nil, nil)
            #endif
        }()

    #if os(Linux)
    /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY` in `<fcntl.h>`, a macro Swift does not import): `__O_TMPFILE` has
    /// the generic value on x86-64, arm64, arm and riscv64.
    private static let flag: Int32 = 0o20000000 | O_DIRECTORY
    #endif

    /// The directory of the process's descriptors' own entries.
    private static let descriptors = "/proc/self/fd"

    /// How ``link(_:in:as:through:)`` reaches the open file it names.
    enum LinkWay: CaseIterable {
        /// `linkat` of the descriptor itself (`AT_EMPTY_PATH`): Linux 6.10 and later allow it to the process that
        /// opened the file, earlier ones only with `CAP_DAC_READ_SEARCH` (`ENOENT` otherwise). No path is looked up.
        case emptyPath
        /// `linkat` of the descriptor's own entry under `/proc/self/fd`, which leads to the open file: any kernel,
        /// no privilege, one lookup through `/proc` a link (2% of the CPU time of a copy of 10,000 empty files).
        case descriptorsEntry
    }

    #if os(Linux)
    /// `AT_EMPTY_PATH` (`<fcntl.h>`, which Swift imports only with `_GNU_SOURCE`): the same on every architecture.
    private static let emptyPath: Int32 = 0x1000
    #endif

    /// Whether links go the empty path's way first: until it failed once where the descriptor's entry served.
    private static let emptyPathLinks = Atomic(true)

    /// Gives the file open as `descriptor` (made by ``FileSystem/Calls/openUnnamed``) the name `name` in the open
    /// directory `directory`, reached `way`; an entry already there, even a symbolic link, fails with `EEXIST`.
    static func link(_ descriptor: Int32, in directory: Int32, as name: String, through way: LinkWay) throws(Errno) {
        #if os(Linux)
        _ = try FileName.withCString(name) { name throws(Errno) in
            try retryingInterrupts {
                switch way {
                case .emptyPath: linkat(descriptor, "", directory, name, emptyPath)
                case .descriptorsEntry:
                    linkat(AT_FDCWD, descriptors + "/\(descriptor)", directory, name, AT_SYMLINK_FOLLOW)
                }
            }
        }
        #else
        throw Errno(rawValue: ENOTSUP)
        #endif
    }

    /// How many files with no name may be open at once, and how many are: a small file's copy gives its slot back
    /// once sealed (``CopyJournal/commitTogether(_:then:)``) while its file with no name stays open until its batch
    /// names it, so without this bound a slow `syncfs` would let thousands of descriptors pile up. Past it, a copy
    /// makes a named partial, closed when sealed.
    package final class Budget: Sendable {
        /// The most files with no name open at once.
        package let most: Int
        private let open = Atomic(0)

        package init(most: Int) {
            self.most = max(0, most)
        }

        /// The process's: 256, as many copies as a headless copy has under way at once (four for each of the 64
        /// that run), so none of its small files falls back to a named partial while a slow `syncfs` holds their
        /// batch; fewer where the soft limit on open files is low (a sixteenth of what is left of it after 128),
        /// read when the first copy asks (after the copy command raised it, ``OpenFileLimit/raise()``). At 64, a
        /// tree of 10,000 empty files on ext4 made 4,233 files with no name and 5,767 named partials: the batches'
        /// `syncfs` kept 64 open while the copies went on, and the named partials' creates contended for the
        /// directory's lock again.
        package static let perProcess = Budget(most: most(forOpenFiles: OpenFileLimit.current))

        /// The most files with no name open at once whatever the limit on open files.
        package static let mostOpen = 256

        /// How many files with no name may be open at once under a soft limit of `openFiles` open files: a
        /// sixteenth of what is left of it after 128, between none and ``mostOpen``.
        package static func most(forOpenFiles openFiles: Int) -> Int {
            max(0, min(mostOpen, (openFiles - 128) / 16))
        }

        /// How many files with no name are open now.
        package var openCount: Int { open.load(ordering: .relaxed) }

        /// Counts one more open file with no name; false, counting nothing, when ``most`` are open.
        func reserve() -> Bool {
            if open.add(1, ordering: .relaxed).newValue <= most { return true }
            open.subtract(1, ordering: .relaxed)
            return false
        }

        /// Counts one open file with no name fewer.
        func release() {
            open.subtract(1, ordering: .relaxed)
        }
    }

    /// True for the failures of ``FileSystem/Calls/openUnnamed`` that say the file system (or the kernel) has no
    /// unnamed files, rather than that this one could not be made: a copy then makes named partials there.
    package static func isUnsupported(_ error: Errno) -> Bool {
        [EOPNOTSUPP, EISDIR, EINVAL].contains(error.rawValue)
    }
}

/// Writes that bypass the page cache (Linux's `O_DIRECT`). A large file written through the cache is
/// copied into it, then written back from it by the kernel's flusher and the `fsync`s, which costs a
/// second pass over every byte in CPU time; written directly, the device reads the bytes from the
/// copy's own buffer. Such a write must start at a multiple of ``alignment`` in the file, be a multiple
/// of it long and come from a buffer aligned to it (the copy's buffers are page-aligned).
package enum DirectWrites {
    /// The alignment every direct write keeps: 4096 bytes, a multiple of every device's logical block.
    package static let alignment = 4096

    /// True when a write of `count` bytes at `offset` may go directly.
    package static func fits(count: Int, at offset: Int64) -> Bool {
        count % alignment == 0 && offset % Int64(alignment) == 0
    }

    /// Sets or clears `O_DIRECT` on the open file; returns whether it is set after the call.
    static func set(_ descriptor: Int32, _ on: Bool) -> Bool {
        #if os(Linux)
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0 else { return false }
        // `__O_DIRECT`: glibc names `O_DIRECT` only for _GNU_SOURCE, which Swift's Glibc module is built without.
        let wanted = on ? flags | __O_DIRECT : flags & ~__O_DIRECT
        return fcntl(descriptor, F_SETFL, wanted) == 0 ? on : (flags & __O_DIRECT) != 0
        #else
        return false
        #endif
    }
}

/// Access and modification times as `futimens` and `utimensat` take them.
private func timespecs(_ accessed: FileTime, _ modified: FileTime) -> [timespec] {
    [accessed.systemTime, modified.systemTime]
}

/// Runs a system call until it does not fail with EINTR; throws its errno for any other failure.
@inline(__always)
func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let error = Errno.current
        if error.rawValue != EINTR { throw error }
    }
}

/// A run of a file that is all data or all hole, ending at `end`.
struct FileSegment {
    var isHole: Bool
    var end: Int64
}

/// `O_PATH` (Linux, `<bits/fcntl-linux.h>`: 010000000 on every architecture), which Glibc declares only under
/// `_GNU_SOURCE`: a descriptor that only names a directory, opened with search permission alone.
#if os(Linux)
let openPathOnly: Int32 = 0o10_000_000
#else
let openPathOnly = O_RDONLY
#endif

/// `lseek` whence values that find a sparse file's data and holes. Glibc declares `SEEK_DATA` and
/// `SEEK_HOLE` only under `_GNU_SOURCE`, which the Swift importer does not set; these are Linux's values
/// (`<linux/fs.h>`: 3 and 4), the same on every architecture.
#if os(Linux)
let seekData: Int32 = 3
let seekHole: Int32 = 4
#else
let seekData = SEEK_DATA
let seekHole = SEEK_HOLE
#endif

/// True when the process runs as root, which alone may give a copy its source's owner. Read once: the
/// effective user never changes while statetui runs, and a tree copy asks for every file.
let runsAsRoot = effectiveUser == 0

/// The user this process acts as, who owns what it creates when not root.
let effectiveUser = UInt32(geteuid())
