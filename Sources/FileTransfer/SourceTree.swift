#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A source directory read the way `statetui copy` copies it, like `cp -r`: every directory and regular
/// file under it, named relative to the directory's parent, so the copy keeps the tree under the
/// destination (`DEST/NAME/...`).
///
/// The walk never follows a symbolic link: every directory below the root is opened relative to its
/// parent with `O_NOFOLLOW`, every entry is described with `fstatat(AT_SYMLINK_NOFOLLOW)`. Symbolic
/// links are listed in ``links`` (copied as links, like `cp -a`); files that are hard links to an earlier
/// file of the tree name it (``File/sameFileAs``); FIFOs, sockets and devices are not copied, they are
/// listed in ``skipped`` for the caller to report. The walk is bounded: a tree nested deeper than ``Limits/maximumDepth`` or holding more than
/// ``Limits/maximumEntries`` files and directories is refused with an error naming the bound.
public struct SourceTree: Hashable, Sendable {
    /// The bounds of a walk.
    public struct Limits: Hashable, Sendable {
        /// How many directory levels below the root may hold entries (the root's own entries are level 1).
        public var maximumDepth: Int
        /// How many files and directories the tree may hold, the root not counted.
        public var maximumEntries: Int

        /// 32 levels and 10,000 files and directories: every copied file holds a descriptor of its
        /// directory while its transfer lives, so the entry bound also bounds the open descriptors.
        public static let standard = Limits(maximumDepth: 32, maximumEntries: 10_000)
    }

    /// A regular file of the tree.
    public struct File: Hashable, Sendable {
        /// The directories from the tree's root down to the file's own, e.g. `["photos", "2024"]`.
        public var directory: [String]
        /// The file's name.
        public var name: String
        /// The path the file is read from.
        public var source: String

        /// The relative path of an earlier file of the tree that is the same file (a hard link to it):
        /// this one is made a second name of that file's copy instead of a copy of its own.
        public var sameFileAs: String? = nil

        /// The path relative to the destination, e.g. `photos/2024/a.jpg`.
        public var relativePath: String { (directory + [name]).joined(separator: "/") }
    }

    /// A symbolic link of the tree, copied as a link (its target as it is, never followed).
    public struct Link: Hashable, Sendable {
        /// The directories from the tree's root down to the link's own.
        public var directory: [String]
        /// The link's name.
        public var name: String
        /// The link's path in the source.
        public var source: String
    }

    /// An entry the copy leaves out, with the reason.
    public struct Skipped: Hashable, Sendable, CustomStringConvertible {
        /// The entry's path in the source.
        public var path: String
        /// Its kind (a symbolic link, a FIFO, a socket, a device); nil when it vanished during the walk.
        public var kind: FileKind?

        /// One line naming the entry and why it is not copied.
        public var description: String {
            switch kind {
            case .symbolicLink?:
                "skipping \(DisplayText.escaped(path)): it is a symbolic link, which a tree copy never follows"
            case let kind?:
                "skipping \(DisplayText.escaped(path)): it is \(kind), not a regular file"
            case nil:
                "skipping \(DisplayText.escaped(path)): it vanished while the tree was read"
            }
        }
    }

    /// The root directory's name: the top directory created in the destination.
    public let name: String
    /// Every directory to create, the root first and each parent before its children, as the components
    /// of its path relative to the destination (`["photos"]`, `["photos", "2024"]`).
    public let directories: [[String]]
    /// Every regular file, depth first, names in byte order within a directory.
    public let files: [File]
    /// Every symbolic link, in the order the walk met them.
    public let links: [Link]
    /// Entries left out, in the order the walk met them.
    public let skipped: [Skipped]

    /// Reads the tree at `root`, a directory (the root itself may be reached through a symbolic link the
    /// user named; nothing below it is).
    ///
    /// An entry whose path relative to `root` (e.g. `2024/a.jpg` in `photos`) matches one of `excluding`
    /// (`fnmatch(3)` patterns, where `*` also matches `/`) is left out, with everything below it; a
    /// pattern ending in `/` matches directories only.
    public static func walk(
        _ root: String, limits: Limits = .standard, excluding: [String] = [], fileSystem: FileSystem = .posix
    ) throws(SourceTreeError) -> SourceTree {
        let name = String(root.split(separator: "/", omittingEmptySubsequences: true).last ?? "")
        let descriptor: Int32
        do {
            descriptor = try fileSystem.open(root, O_RDONLY | O_DIRECTORY | O_NOCTTY, 0)
        } catch {
            throw .unreadable(path: root, reason: error)
        }
        defer { fileSystem.close(descriptor) }
        var walker = Walker(root: root, limits: limits, fileSystem: fileSystem)
        walker.excluding = excluding
        walker.directories.append([name])
        try walker.read(descriptor, path: root, components: [name], depth: 1)
        return SourceTree(
            name: name, directories: walker.directories, files: walker.files, links: walker.links,
            skipped: walker.skipped)
    }

    /// The walk's accumulators and bounds.
    private struct Walker {
        let root: String
        let limits: Limits
        let fileSystem: FileSystem
        var directories: [[String]] = []
        var files: [File] = []
        var links: [Link] = []
        var skipped: [Skipped] = []
        /// The first file met of each file with more than one name, by identity.
        var firstNames: [FileIdentity: String] = [:]
        /// Patterns of relative paths to leave out.
        var excluding: [String] = []

        /// True when the entry at `relativePath` (below the root) matches a pattern to leave out.
        func isExcluded(_ relativePath: String, isDirectory: Bool) -> Bool {
            excluding.contains { pattern in
                if pattern.hasSuffix("/") {
                    return isDirectory && fnmatch(String(pattern.dropLast()), relativePath, 0) == 0
                }
                return fnmatch(pattern, relativePath, 0) == 0
            }
        }
        var entries = 0

        init(root: String, limits: Limits, fileSystem: FileSystem) {
            self.root = root
            self.limits = limits
            self.fileSystem = fileSystem
        }

        /// Reads the open directory at `path` whose entries lie at `depth`, then its subdirectories.
        mutating func read(_ descriptor: Int32, path: String, components: [String], depth: Int) throws(SourceTreeError)
        {
            let names: [String]
            do {
                names = try fileSystem.entriesAt(descriptor, limits.maximumEntries - entries + 1).sorted {
                    $0.utf8.lexicographicallyPrecedes($1.utf8)
                }
            } catch {
                throw .unreadable(path: path, reason: error)
            }
            for name in names {
                let entryPath = path.hasSuffix("/") ? path + name : path + "/" + name
                let status: FileStatus
                do {
                    status = try fileSystem.statusAt(descriptor, name)
                } catch .noSuchFile {
                    skipped.append(Skipped(path: entryPath, kind: nil))
                    continue
                } catch {
                    throw .unreadable(path: entryPath, reason: error)
                }
                let relativePath = (components.dropFirst() + [name]).joined(separator: "/")
                if isExcluded(relativePath, isDirectory: status.kind == .directory) { continue }
                switch status.kind {
                case .regularFile:
                    try count()
                    var file = File(directory: components, name: name, source: entryPath)
                    if status.linkCount > 1 {
                        file.sameFileAs = firstNames[status.identity]
                        if file.sameFileAs == nil { firstNames[status.identity] = file.relativePath }
                    }
                    files.append(file)
                case .directory:
                    try count()
                    guard depth < limits.maximumDepth else {
                        throw .tooDeep(root: root, path: entryPath, limit: limits.maximumDepth)
                    }
                    let child: Int32
                    do {
                        child = try fileSystem.openAt(
                            descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY, 0)
                    } catch {
                        throw .unreadable(path: entryPath, reason: error)
                    }
                    defer { fileSystem.close(child) }
                    directories.append(components + [name])
                    try read(child, path: entryPath, components: components + [name], depth: depth + 1)
                case .symbolicLink:
                    try count()
                    links.append(Link(directory: components, name: name, source: entryPath))
                case .fifo, .socket, .characterDevice, .blockDevice, .unknown:
                    skipped.append(Skipped(path: entryPath, kind: status.kind))
                }
            }
        }

        /// Counts one more file or directory against the bound.
        private mutating func count() throws(SourceTreeError) {
            entries += 1
            guard entries <= limits.maximumEntries else {
                throw .tooManyEntries(root: root, limit: limits.maximumEntries)
            }
        }
    }
}

/// Why a source tree cannot be copied: nothing was started.
public enum SourceTreeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A directory lies deeper below `root` than the limit allows.
    case tooDeep(root: String, path: String, limit: Int)
    /// The tree holds more files and directories than the limit allows.
    case tooManyEntries(root: String, limit: Int)
    /// A directory or entry of the tree could not be read.
    case unreadable(path: String, reason: Errno)

    /// One line naming the cause.
    public var description: String {
        switch self {
        case .tooDeep(let root, let path, let limit):
            "cannot copy \(DisplayText.escaped(root)): it is nested more than \(limit) directories deep "
                + "(\(DisplayText.escaped(path)))"
        case .tooManyEntries(let root, let limit):
            "cannot copy \(DisplayText.escaped(root)): it holds more than \(limit) files and directories"
        case .unreadable(let path, let reason):
            "cannot read \(DisplayText.escaped(path)): \(reason)"
        }
    }
}
