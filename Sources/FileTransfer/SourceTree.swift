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
/// links, FIFOs, sockets and devices are listed in ``copiedAsIs`` (made anew as what they are, like `cp -a`
/// and `rsync -a`: a link with its target, never followed; the others never opened); files that are hard
/// links to an earlier file of the tree (or of a source read before it) name it (``File/sameFileAs``). Names
/// are the file system's bytes (``FileName``).
///
/// The tree has no size bound: ``Walk`` reads it one entry at a time, iteratively, holding one open
/// directory per level it is inside and the names of those directories; ``walk(_:excluding:fileSystem:)``
/// collects a whole tree for the callers that want one (the dry run, tests).
public struct SourceTree: Hashable, Sendable {
    /// A regular file of the tree.
    public struct File: Hashable, Sendable {
        /// The directories from the tree's root down to the file's own, e.g. `["photos", "2024"]`.
        public var directory: [String]
        /// The file's name.
        public var name: String
        /// The path the file is read from.
        public var source: String

        /// The path below the destination of an earlier file of the tree, or of a source read before it, that is
        /// the same file (a hard link to it): this one is made a second name of that file's copy instead of a
        /// copy of its own.
        public var sameFileAs: String? = nil
        /// True for the first name met of a file with other names (`st_nlink` > 1): a later name of it in the
        /// tree names this one (``sameFileAs``), whose path below the destination is where its copy lies.
        public var hasOtherNames = false
        /// The size the walk read from the file's status: a hint for its copy, which reads the file to its end
        /// whatever this says (nil: not read).
        public var size: Int64? = nil

        /// The path relative to the destination, e.g. `photos/2024/a.jpg`.
        public var relativePath: String { SourceTree.joined(directory[...], name) }
    }

    /// An entry of the tree copied as what it is rather than read: a symbolic link (made with its target as it
    /// is, never followed), a FIFO, a socket or a device (made anew, never opened). Its kind is read again
    /// when it is made.
    public struct AsIs: Hashable, Sendable {
        /// The directories from the tree's root down to the entry's own.
        public var directory: [String]
        /// The entry's name.
        public var name: String
        /// The entry's path in the source.
        public var source: String

        /// The entry `name` in `directory` of the tree (`[]`: the destination itself), read from `source`.
        public init(directory: [String], name: String, source: String) {
            self.directory = directory
            self.name = name
            self.source = source
        }

        /// The path relative to the destination, as a file's (``File/relativePath``).
        public var relativePath: String { SourceTree.joined(directory[...], name) }
    }

    /// An entry the copy leaves out, with the reason.
    public struct Skipped: Hashable, Sendable, CustomStringConvertible {
        /// The entry's path in the source.
        public var path: String
        /// Its kind (one the system reports that is none of those copied); nil when it vanished during the walk.
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

    /// One step of a ``Walk``: a directory is entered (its entries follow), an entry met, or a directory
    /// left (all its entries, and those of its subdirectories, came before).
    public enum Entry: Hashable, Sendable {
        /// A directory to create, as the components of its path relative to the destination (`["photos"]`,
        /// `["photos", "2024"]`), with its source's status (the root's followed, as the user named it).
        case directory([String], FileStatus)
        /// A regular file.
        case file(File)
        /// A symbolic link, FIFO, socket or device.
        case asIs(AsIs)
        /// An entry left out.
        case skipped(Skipped)
        /// An entry below the root that could not be read: a failure of that entry alone, the walk goes on.
        case unreadable(Unreadable)
        /// The directory with these components has no more entries.
        case leave([String])
    }

    /// An entry below the root the walk could not read or must not copy: a directory it may not open or list
    /// (nothing below it is copied), an entry whose status it cannot read, or a directory that is the
    /// destination itself or one of its own ancestors (reached through a bind mount). The entries beside it are
    /// read on, as `cp -a` and `rsync -a` go on past a directory they may not read.
    public struct Unreadable: Hashable, Sendable, CustomStringConvertible {
        /// The components of its path relative to the destination, e.g. `["photos", "private"]`.
        public var components: [String]
        /// Its path in the source.
        public var path: String
        /// Why it is not copied.
        public var cause: Cause

        /// Why an entry of a tree is not copied.
        public enum Cause: Hashable, Sendable {
            /// Its status, or a directory's names, could not be read.
            case error(Errno)
            /// The directory is the destination directory (a bind mount of it inside the tree): copying it
            /// would copy the copy into itself without end.
            case destination(path: String)
            /// The directory is one the walk is already inside (a bind mount of an ancestor below it): reading
            /// it would never end.
            case loop(ancestor: String)
        }

        /// An entry that could not be read for `reason`.
        public init(components: [String], path: String, reason: Errno) {
            self.init(components: components, path: path, cause: .error(reason))
        }

        /// An entry not copied because of `cause`.
        public init(components: [String], path: String, cause: Cause) {
            self.components = components
            self.path = path
            self.cause = cause
        }

        /// Why it is not copied, after its name: `cannot read it: Permission denied`.
        public var detail: String {
            switch cause {
            case .error(let reason):
                "cannot read it: \(reason.explained)"
            case .destination(let destination):
                "it is the destination directory \(DisplayText.escaped(destination)) (a bind mount?): a directory "
                    + "is never copied into itself"
            case .loop(let ancestor):
                "it is \(DisplayText.escaped(ancestor)) again (a bind mount of a directory inside itself): a loop "
                    + "would never end"
            }
        }

        /// One line naming the entry and the cause: `cannot read photos/private: Permission denied`, or
        /// `cannot copy src/backup: it is the destination directory …`.
        public var description: String {
            switch cause {
            case .error(let reason):
                SourceTreeError.unreadable(path: path, reason: reason).description
            case .destination, .loop:
                "cannot copy \(DisplayText.escaped(path)): \(detail)"
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
    /// Every symbolic link, FIFO, socket and device, in the order the walk met them.
    public let copiedAsIs: [AsIs]
    /// Entries left out, in the order the walk met them.
    public let skipped: [Skipped]
    /// Entries that could not be read, in the order the walk met them.
    public let unreadable: [Unreadable]

    /// The path the walk reads the entry `name` of the directory at `directory` from (`directory` may end in a
    /// `/`, as a root named `LINK/` does).
    package static func path(of name: String, in directory: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// `directory`'s components and `name`, joined by `/`: the string made once at its length, where
    /// `(directory + [name]).joined(separator: "/")` made an array and went through the generic join. With the
    /// path below the root joined only when there are patterns to exclude, and an entry's components made only
    /// where it keeps them, a tree copy's headless loop spent 4,300 instructions a file less (callgrind, 2,000
    /// empty files: 169.0 M -> 160.4 M).
    static func joined(_ directory: ArraySlice<String>, _ name: String) -> String {
        var length = name.utf8.count
        for component in directory { length += component.utf8.count + 1 }
        var path = ""
        path.reserveCapacity(length)
        for component in directory {
            path += component
            path += "/"
        }
        path += name
        return path
    }

    /// Reads the whole tree at `root` (see ``Walk``).
    public static func walk(
        _ root: String, excluding: [String] = [], destination: Destination? = nil, fileSystem: FileSystem = .posix
    ) throws(SourceTreeError) -> SourceTree {
        var firstNames = FirstNames()
        return try walk(
            root, excluding: excluding, destination: destination, sharing: &firstNames, fileSystem: fileSystem)
    }

    /// Reads the whole tree at `root`, its files with other names told apart with `firstNames`, the table of
    /// the sources read before it (see ``Walk/next(sharing:)``).
    package static func walk(
        _ root: String, excluding: [String] = [], destination: Destination? = nil,
        sharing firstNames: inout FirstNames, fileSystem: FileSystem = .posix
    ) throws(SourceTreeError) -> SourceTree {
        var walk = try Walk(root, excluding: excluding, destination: destination, fileSystem: fileSystem)
        var directories: [[String]] = []
        var files: [File] = []
        var copiedAsIs: [AsIs] = []
        var skipped: [Skipped] = []
        var unreadable: [Unreadable] = []
        while let entry = walk.next(sharing: &firstNames) {
            switch entry {
            case .directory(let components, _): directories.append(components)
            case .file(let file): files.append(file)
            case .asIs(let entry): copiedAsIs.append(entry)
            case .skipped(let entry): skipped.append(entry)
            case .unreadable(let entry): unreadable.append(entry)
            case .leave: break
            }
        }
        return SourceTree(
            name: walk.name, directories: directories, files: files, copiedAsIs: copiedAsIs, skipped: skipped,
            unreadable: unreadable)
    }

    /// A tree read one entry at a time, depth first, names in byte order within a directory: the root is
    /// entered first, and every directory is left after its last entry.
    ///
    /// An entry whose path relative to `root` (e.g. `2024/a.jpg` in `photos`) matches one of `excluding`
    /// (`fnmatch(3)` patterns, where `*` also matches `/`) is left out, with everything below it; a
    /// pattern ending in `/` matches directories only.
    ///
    /// What it holds: for each directory it is inside, one descriptor and that directory's names (read at
    /// once, to be sorted); and, to tell hard links, the first path of each file with more than one name
    /// (its own table, or one the caller shares between the walks of several sources, ``next(sharing:)``).
    /// Its depth is bounded only by the process's open files (one descriptor a level).
    public struct Walk: Sendable {
        /// The root directory's name.
        public let name: String
        private let root: String
        private let fileSystem: FileSystem
        /// The patterns to leave out, each with the `fnmatch` flags it is matched with.
        private let excluding: [(pattern: String, flags: Int32)]
        /// The directory the tree is copied into, never read as part of it.
        private let destination: Destination?
        /// The directories being read, the root first.
        private var stack: [Frame] = []
        /// The root's status, until the walk reports it as its first entry.
        private var rootEntry: FileStatus?
        /// The first name met of each file with more than one name, until all its names were met, for
        /// ``next()``.
        private var firstNames = FirstNames()

        /// One open directory and where the walk is in its names.
        private struct Frame {
            var descriptor: Int32
            var identity: FileIdentity
            var path: String
            var components: [String]
            var names: [String]
            var next = 0
        }

        /// Opens the directory `root` (the root itself may be reached through a symbolic link the user named;
        /// nothing below it is). A directory below it that is `destination`, or one the walk is already inside, is
        /// not read (an ``Unreadable`` entry): a bind mount can put either inside a tree.
        public init(
            _ root: String, excluding: [String] = [], destination: Destination? = nil, fileSystem: FileSystem = .posix
        ) throws(SourceTreeError) {
            self.root = root
            self.fileSystem = fileSystem
            self.excluding = excluding.map(Self.exclusion)
            self.destination = destination
            name = Self.rootName(of: root)
            let descriptor: Int32
            do {
                descriptor = try fileSystem.open(root, O_RDONLY | O_DIRECTORY | O_NOCTTY, 0)
            } catch {
                throw .unreadable(path: root, reason: error)
            }
            do throws(Errno) {
                let status = try fileSystem.status(descriptor)
                rootEntry = status
                stack.append(
                    Frame(
                        descriptor: descriptor, identity: status.identity, path: root, components: [name],
                        names: try Self.names(in: descriptor, fileSystem: fileSystem)))
            } catch {
                fileSystem.close(descriptor)
                throw .unreadable(path: root, reason: error)
            }
        }

        /// The name of the directory `root` names, the tree's own directory in the destination: its last component
        /// (`photos` for `a/photos/`); empty for `/`.
        package static func rootName(of root: String) -> String {
            CopyRequest.name(of: root)
        }

        /// Closes the directories still open (a walk given up before its end).
        public mutating func close() {
            for frame in stack { fileSystem.close(frame.descriptor) }
            stack = []
        }

        /// Leaves the directory the last ``next()`` entered without reading its entries: no `.leave` follows
        /// for it (its copy could not be made, so nothing below it is copied).
        public mutating func skipEntries() {
            guard stack.count > 1 || rootEntry == nil, let frame = stack.popLast() else { return }
            fileSystem.close(frame.descriptor)
        }

        /// The next entry; nil once the root was left. Once the root is open the walk does not fail: an entry
        /// it cannot read is an ``Entry/unreadable(_:)`` entry, and the walk goes on with the next.
        public mutating func next() -> Entry? {
            var names = firstNames
            firstNames = FirstNames()
            defer { firstNames = names }
            return next(sharing: &names)
        }

        /// ``next()``, a file with other names told apart with `firstNames`: a name of a file met before, in
        /// this tree or in another source read with the same table, is ``File/sameFileAs`` that first name.
        package mutating func next(sharing firstNames: inout FirstNames) -> Entry? {
            if let status = rootEntry {
                rootEntry = nil
                return .directory([name], status)
            }
            while let index = stack.indices.last {
                guard stack[index].next < stack[index].names.count else {
                    let frame = stack.removeLast()
                    fileSystem.close(frame.descriptor)
                    return .leave(frame.components)
                }
                let name = stack[index].names[stack[index].next]
                stack[index].next += 1
                if let entry = entry(name, in: stack[index], firstNames: &firstNames) { return entry }
            }
            return nil
        }

        /// The entry `name` of the open directory `frame`; nil when it is excluded. A directory is opened
        /// and its names read: the walk goes on inside it.
        private mutating func entry(_ name: String, in frame: Frame, firstNames: inout FirstNames) -> Entry? {
            let entryPath = SourceTree.path(of: name, in: frame.path)
            // An entry's components are made only where it keeps them: a file keeps its directory's.
            func unreadable(_ reason: Errno) -> Entry {
                .unreadable(Unreadable(components: frame.components + [name], path: entryPath, reason: reason))
            }
            let status: FileStatus
            do {
                status = try fileSystem.statusAt(frame.descriptor, name)
            } catch .noSuchFile {
                return .skipped(Skipped(path: entryPath, kind: nil))
            } catch {
                return unreadable(error)
            }
            if isExcluded(name, in: frame, isDirectory: status.kind == .directory) { return nil }
            switch status.kind {
            case .regularFile:
                var file = File(directory: frame.components, name: name, source: entryPath)
                file.size = status.size
                if status.linkCount > 1 {
                    file.sameFileAs = firstNames.meet(status, at: file.relativePath)
                    file.hasOtherNames = file.sameFileAs == nil
                }
                return .file(file)
            case .directory:
                let components = frame.components + [name]
                let child: Int32
                do {
                    child = try fileSystem.openAt(
                        frame.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY, 0)
                } catch .noSuchFile {
                    return .skipped(Skipped(path: entryPath, kind: nil))
                } catch {
                    return unreadable(error)
                }
                do {
                    // What was opened, which a bind mount may make the destination or a directory above it.
                    let identity = try fileSystem.status(child).identity
                    if let refusal = refusal(of: identity) {
                        fileSystem.close(child)
                        return .unreadable(Unreadable(components: components, path: entryPath, cause: refusal))
                    }
                    let names = try Self.names(in: child, fileSystem: fileSystem)
                    stack.append(
                        Frame(
                            descriptor: child, identity: identity, path: entryPath, components: components,
                            names: names))
                } catch {
                    fileSystem.close(child)
                    return unreadable(error)
                }
                return .directory(components, status)
            case .symbolicLink, .fifo, .socket, .characterDevice, .blockDevice:
                return .asIs(AsIs(directory: frame.components, name: name, source: entryPath))
            case .unknown:
                return .skipped(Skipped(path: entryPath, kind: status.kind))
            }
        }

        /// Why the directory `identity` must not be read: it is the destination, or a directory the walk is
        /// inside; nil for any other.
        private func refusal(of identity: FileIdentity) -> Unreadable.Cause? {
            if let destination, destination.identity == identity { return .destination(path: destination.path) }
            return stack.first { $0.identity == identity }.map { .loop(ancestor: $0.path) }
        }

        /// `pattern` as it matches the path below the root, with its `fnmatch` flags: a pattern's `*` and `?` also
        /// match `/`, so `*.log` leaves out every log file of the tree; a leading `/` (or `./`) anchors it to the
        /// root as with rsync, where `*` and `?` stop at a `/` (`/*.log`: the root's own log files only). Before,
        /// `/cache` and `./cache` matched nothing, silently.
        ///
        /// Read in the pattern's bytes, as `fnmatch` reads it: in characters, a `/` before a combining mark was one
        /// character with the mark, and `/\u{301}x` was not anchored and matched nothing.
        static func exclusion(_ pattern: String) -> (pattern: String, flags: Int32) {
            let (slash, dot) = (UInt8(ascii: "/"), UInt8(ascii: "."))
            var rest = pattern.utf8[...]
            let startsWithDotSlash = { (bytes: Substring.UTF8View) in
                bytes.first == dot && bytes.dropFirst().first == slash
            }
            var anchored = false
            while rest.first == slash || startsWithDotSlash(rest) {
                anchored = true
                rest = rest.drop { $0 == slash }
                if startsWithDotSlash(rest) { rest = rest.dropFirst(2) }
            }
            return (String(decoding: rest, as: UTF8.self), anchored ? FNM_PATHNAME : 0)
        }

        /// True when the entry `name` of `frame` matches a pattern to leave out, by its path below the root, made
        /// only when there are patterns; the path's bytes are matched (``FileName``).
        private func isExcluded(_ name: String, in frame: Frame, isDirectory: Bool) -> Bool {
            guard !excluding.isEmpty else { return false }
            let relativePath = SourceTree.joined(frame.components.dropFirst(), name)
            return FileName.withCString(relativePath) { path in
                excluding.contains { pattern, flags in
                    if pattern.hasSuffix("/") {
                        return isDirectory && fnmatch(String(pattern.dropLast()), path, flags) == 0
                    }
                    return fnmatch(pattern, path, flags) == 0
                }
            }
        }

        /// Every name in the open directory, in byte order.
        private static func names(in descriptor: Int32, fileSystem: FileSystem) throws(Errno) -> [String] {
            FileName.sortedInByteOrder(try fileSystem.entriesAt(descriptor, Int.max))
        }
    }
}

extension SourceTree {
    /// The directory a tree is copied into, as a walk avoids it: its path for messages and what it is on disk.
    public struct Destination: Hashable, Sendable {
        /// Its path as the user gave it.
        public var path: String
        /// Its device and inode.
        public var identity: FileIdentity

        /// The destination directory at `path`, which is `identity` on disk.
        public init(path: String, identity: FileIdentity) {
            self.path = path
            self.identity = identity
        }
    }
}

/// Why a source tree cannot be copied: nothing was started.
public enum SourceTreeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A directory or entry of the tree could not be read.
    case unreadable(path: String, reason: Errno)

    /// One line naming the cause.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read \(DisplayText.escaped(path)): \(reason.explained)"
        }
    }
}
