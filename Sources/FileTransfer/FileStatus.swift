#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The facts about a file the copier relies on to notice that a source changed, and to refuse entries
/// it must not read or write (anything but a regular file, a file with a second hard link).
///
/// Only size, modification time and the two kind flags are journaled; `kind`, `linkCount`, `identity`
/// and `permissions` describe the file when it was examined and decode as a regular or directory kind
/// with one link, no identity and mode 0600.
public struct FileStatus: Hashable, Sendable, Codable {
    /// Size in bytes.
    public var size: Int64
    /// Last modification time, exactly as the file system keeps it.
    public var modified: FileTime
    /// True for a directory.
    public var isDirectory: Bool
    /// True for a regular file.
    public var isRegularFile: Bool
    /// The kind of entry (a symbolic link only when the link itself was examined).
    public var kind: FileKind
    /// The number of hard links to the file.
    var linkCount: Int
    /// The file's identity: its device and inode (two names of one file have the same).
    package var identity: FileIdentity
    /// Last access time, exactly as the file system keeps it.
    var accessed: FileTime
    /// The owning user (`st_uid`).
    var user: UInt32 = 0
    /// The owning group (`st_gid`).
    var group: UInt32 = 0
    /// The permission bits, setuid, setgid and sticky included (`st_mode & 0o7777`).
    var permissions: UInt32
    /// False when the file has storage for every byte of its size (`st_blocks`), so it has no holes and
    /// the copy need not look for them (`cp`'s test); true when it may have some, or is not known.
    var mayHaveHoles = true
    /// The device a character or block device file stands for (`st_rdev`); 0 for any other kind.
    package var deviceNumber: UInt64 = 0

    /// Describes a file.
    public init(
        size: Int64, modifiedNanoseconds: Int64, isDirectory: Bool, isRegularFile: Bool, kind: FileKind? = nil,
        linkCount: Int = 1, identity: FileIdentity = FileIdentity(device: 0, inode: 0), permissions: UInt32 = 0o600,
        accessedNanoseconds: Int64 = 0
    ) {
        self.size = size
        self.modified = FileTime(nanoseconds: modifiedNanoseconds)
        self.isDirectory = isDirectory
        self.isRegularFile = isRegularFile
        self.kind = kind ?? (isRegularFile ? .regularFile : isDirectory ? .directory : .unknown)
        self.linkCount = linkCount
        self.identity = identity
        self.permissions = permissions
        self.accessed = FileTime(nanoseconds: accessedNanoseconds)
    }

    /// Last modification time in nanoseconds since the epoch, as the journal records it: exact from 1678 to
    /// 2262, the nearest of those bounds beyond them (``FileTime/clampedNanoseconds``).
    public var modifiedNanoseconds: Int64 {
        get { modified.clampedNanoseconds }
        set { modified = FileTime(nanoseconds: newValue) }
    }

    /// The permission bits a copy owned by `user` (not root, so not the source's owner unless it is `user`)
    /// keeps, as `cp -a` does: setuid only when `user` owns the source, setgid only when the copy was given
    /// the source's group (`groupKept`). Otherwise a copy of another user's setuid program would run as its
    /// copier for whoever starts it.
    package func permissionsKept(byUser user: UInt32, groupKept: Bool) -> UInt32 {
        var kept = permissions
        if user != self.user { kept &= ~UInt32(S_ISUID) }
        if !groupKept { kept &= ~UInt32(S_ISGID) }
        return kept
    }

    init(_ raw: stat) {
        #if canImport(Darwin)
        let time = raw.st_mtimespec
        let accessed = raw.st_atimespec
        #else
        let time = raw.st_mtim
        let accessed = raw.st_atim
        #endif
        let kind = FileKind(mode: raw.st_mode)
        self.init(
            size: Int64(raw.st_size), modifiedNanoseconds: 0,
            isDirectory: kind == .directory, isRegularFile: kind == .regularFile, kind: kind,
            linkCount: Int(raw.st_nlink),
            identity: FileIdentity(device: UInt64(raw.st_dev), inode: UInt64(raw.st_ino)),
            permissions: UInt32(raw.st_mode) & 0o7777)
        modified = FileTime(time)
        self.accessed = FileTime(accessed)
        user = UInt32(raw.st_uid)
        group = UInt32(raw.st_gid)
        // `st_blocks` counts 512-byte units whatever the file system's block size (a count too large to multiply,
        // which only a file system that lies reports, covers any size).
        let (stored, overflow) = Int64(raw.st_blocks).multipliedReportingOverflow(by: 512)
        mayHaveHoles = !overflow && stored < Int64(raw.st_size)
        if kind == .characterDevice || kind == .blockDevice { deviceNumber = UInt64(raw.st_rdev) }
    }

    private enum CodingKeys: String, CodingKey {
        case size, modifiedNanoseconds, isDirectory, isRegularFile
    }

    /// Decodes the journaled fields.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            size: try container.decode(Int64.self, forKey: .size),
            modifiedNanoseconds: try container.decode(Int64.self, forKey: .modifiedNanoseconds),
            isDirectory: try container.decode(Bool.self, forKey: .isDirectory),
            isRegularFile: try container.decode(Bool.self, forKey: .isRegularFile))
    }

    /// Encodes the journaled fields.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(size, forKey: .size)
        try container.encode(modifiedNanoseconds, forKey: .modifiedNanoseconds)
        try container.encode(isDirectory, forKey: .isDirectory)
        try container.encode(isRegularFile, forKey: .isRegularFile)
    }

    /// True when size and modification time are the same, i.e. the content is presumed unchanged.
    func sameContent(as other: FileStatus) -> Bool {
        size == other.size && modified == other.modified
    }

    /// True when this destination entry is taken for a copy of `source` without reading it, as rsync
    /// does: a regular file with the source's size and modification time (a copy keeps the time).
    package func isUnchangedCopy(of source: FileStatus) -> Bool {
        kind == .regularFile && sameContent(as: source)
    }

    /// True when this file, a copy of `source` a rerun would skip, shares its inode with other names while the
    /// source's file has only its own (a hard link an earlier run made between files that are apart in the
    /// source since), and its mode, owner or modification time differ from what a copy by `user` gets: changing
    /// them in place would change those other names too. Such a copy is copied anew instead (the other names
    /// keep the inode and their metadata). A source with other names of its own keeps its copy's names
    /// together: the session links them to that copy, and replacing it would leave them apart.
    func sharesMetadataWithOtherNames(asCopyOf source: FileStatus, asUser user: UInt32) -> Bool {
        source.linkCount == 1 && linkCount > 1 && !hasMetadata(of: source, asUser: user)
    }

    /// True when this destination entry is taken for the copy of `source` (a rerun keeps it, a second name is
    /// linked to it): a regular file by ``isUnchangedCopy(of:)``, any other entry by its kind (a device: for the
    /// same device).
    package func isCopy(of source: FileStatus) -> Bool {
        guard source.kind != .regularFile else { return isUnchangedCopy(of: source) }
        return kind == source.kind && deviceNumber == source.deviceNumber
    }

    /// True when this file, a copy of `source` made by a process running as `user`, already has the
    /// metadata a copy gives it (``FileSystem/copyMetadata(to:from:)``): the modification time, the mode
    /// (what ``permissionsKept(byUser:groupKept:)`` leaves of it, not as root) and, as root, the owner and
    /// group. The access time is not compared: reading a file changes it.
    func hasMetadata(of source: FileStatus, asUser user: UInt32) -> Bool {
        guard modified == source.modified else { return false }
        if user == 0 {
            return permissions == source.permissions && self.user == source.user && group == source.group
        }
        return permissions == source.permissionsKept(byUser: user, groupKept: group == source.group)
    }

    /// A FIFO, socket or device as the output names it, without an article: `FIFO`, `socket`, `character
    /// device 1:3` (a device with its major and minor numbers); for another kind, its description.
    package var nodeDescription: String {
        switch kind {
        case .fifo: return "FIFO"
        case .socket: return "socket"
        case .characterDevice, .blockDevice:
            #if canImport(Darwin)
            let (major, minor) = ((deviceNumber >> 24) & 0xff, deviceNumber & 0xff_ffff)
            #else
            // glibc's encoding of `dev_t` (`gnu_dev_major`, `gnu_dev_minor`, macros Swift does not import).
            let major = ((deviceNumber >> 32) & 0xffff_f000) | ((deviceNumber >> 8) & 0xfff)
            let minor = ((deviceNumber >> 12) & 0xffff_ff00) | (deviceNumber & 0xff)
            #endif
            return "\(kind == .characterDevice ? "character" : "block") device \(major):\(minor)"
        case .regularFile, .directory, .symbolicLink, .unknown:
            return kind.description
        }
    }

    /// True for a regular file with no other name: the only kind of entry the copier writes into.
    var isPrivateRegularFile: Bool {
        kind == .regularFile && linkCount == 1
    }
}

/// Which file an entry is: two names with the same device and inode are one file.
public struct FileIdentity: Hashable, Sendable {
    /// The device that holds the file (`st_dev`).
    public var device: UInt64
    /// The file's inode on that device (`st_ino`).
    public var inode: UInt64

    /// Names a file by device and inode.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

/// A file's time as the file system keeps it: whole seconds since the epoch (negative before 1970) and the
/// nanoseconds after them, `0..<1_000_000_000`, as `struct timespec` holds it. Any time a file may have is
/// kept exactly (a count of nanoseconds in 64 bits reaches only from 1678 to 2262: a file dated 2400 made
/// the copy trap, and one dated half a second before 1970 was set as an invalid `timespec`).
public struct FileTime: Hashable, Sendable {
    /// Whole seconds since the epoch, rounded down.
    public var seconds: Int64
    /// Nanoseconds after ``seconds``, `0..<1_000_000_000`.
    public var nanoseconds: Int64

    /// `seconds` and `nanoseconds` after them, normalised so the nanoseconds lie in `0..<1_000_000_000`.
    public init(seconds: Int64, nanoseconds: Int64 = 0) {
        let (carry, rest) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        self.seconds = seconds + carry - (rest < 0 ? 1 : 0)
        self.nanoseconds = rest < 0 ? rest + 1_000_000_000 : rest
    }

    /// The time `nanoseconds` after the epoch (before it, when negative).
    public init(nanoseconds: Int64) {
        self.init(seconds: 0, nanoseconds: nanoseconds)
    }

    init(_ time: timespec) {
        self.init(seconds: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec))
    }

    /// Nanoseconds since the epoch, the nearest `Int64` when the time lies beyond what it counts.
    public var clampedNanoseconds: Int64 {
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, overflowAgain) = whole.addingReportingOverflow(nanoseconds)
        guard !overflow, !overflowAgain else { return seconds < 0 ? .min : .max }
        return sum
    }

    /// As `utimensat` and `futimens` take it.
    var systemTime: timespec {
        timespec(tv_sec: time_t(truncatingIfNeeded: seconds), tv_nsec: Int(nanoseconds))
    }
}
