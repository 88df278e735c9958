#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `statetui copy --dry-run` says a copy would do, decided by reading only: nothing is created,
/// written or locked (no directory, no journal, no partial).
///
/// Each file is decided as the copy decides a file already under its final name: nothing there is
/// copied; the source's size and modification time (or, with `comparesContent` or when only the times
/// differ, its content) is skipped; a directory there or the source itself is a failure; anything else
/// is replaced with `overwrite`, else refused. A journal left by an interrupted run is not consulted
/// (the real run may resume such a file instead of copying it whole).
public struct CopyPreview: Hashable, Sendable {
    /// One entry's fate.
    public enum Action: Hashable, Sendable {
        case copy
        case skip(reason: String)
        case replace
        case refuse(reason: String)
        case link
        case createDirectory
    }

    /// One line of the preview: an entry by its path below the destination, and its fate.
    public struct Entry: Hashable, Sendable, CustomStringConvertible {
        /// The path relative to the destination directory, e.g. `photos/2024/a.jpg`.
        public var path: String
        /// What the copy would do with it.
        public var action: Action

        /// `would copy photos/a.jpg`, `would skip a.iso (same size and time)`, ….
        public var description: String {
            let path = DisplayText.escaped(self.path)
            return switch action {
            case .copy: "would copy \(path)"
            case .skip(let reason): "would skip \(path) (\(reason))"
            case .replace: "would replace \(path)"
            case .refuse(let reason): "would fail \(path): \(reason)"
            case .link: "would link \(path)"
            case .createDirectory: "would create directory \(path)"
            }
        }
    }

    /// Every entry, in the order the copy meets them.
    public let entries: [Entry]

    /// True when the real copy would fail some entry.
    public var hasFailures: Bool {
        entries.contains { if case .refuse = $0.action { true } else { false } }
    }

    /// Decides every entry of `sources` copied into `destinationDirectory`; throws when a source tree
    /// cannot be read.
    public init(
        sources: [String], destinationDirectory: String, overwrite: Bool, comparesContent: Bool,
        excluding: [String] = [], fileSystem: FileSystem = .posix
    ) throws(SourceTreeError) {
        var entries: [Entry] = []
        for source in sources {
            guard (try? fileSystem.statusAt(AT_FDCWD, source))?.kind == .directory else {
                let name = CopyRequest(id: "", source: source, destinationDirectory: destinationDirectory).name
                entries.append(
                    Entry(
                        path: name,
                        action: Self.file(
                            source, at: destinationDirectory + "/" + name, overwrite: overwrite,
                            comparesContent: comparesContent, fileSystem: fileSystem)))
                continue
            }
            let tree = try SourceTree.walk(source, excluding: excluding, fileSystem: fileSystem)
            for directory in tree.directories {
                let path = directory.joined(separator: "/")
                if (try? fileSystem.statusAt(AT_FDCWD, destinationDirectory + "/" + path)) == nil {
                    entries.append(Entry(path: path, action: .createDirectory))
                }
            }
            for file in tree.files {
                entries.append(
                    Entry(
                        path: file.relativePath,
                        action: file.sameFileAs != nil
                            ? .link
                            : Self.file(
                                file.source, at: destinationDirectory + "/" + file.relativePath, overwrite: overwrite,
                                comparesContent: comparesContent, fileSystem: fileSystem)))
            }
            for link in tree.links {
                entries.append(Entry(path: (link.directory + [link.name]).joined(separator: "/"), action: .link))
            }
        }
        self.entries = entries
    }

    /// The fate of the regular file `source` copied to `destination`.
    private static func file(
        _ source: String, at destination: String, overwrite: Bool, comparesContent: Bool, fileSystem: FileSystem
    ) -> Action {
        let sourceStatus: FileStatus
        do {
            sourceStatus = try fileSystem.statusOfPath(source)
        } catch {
            return .refuse(reason: "cannot read it: \(error)")
        }
        guard sourceStatus.kind == .regularFile else { return .refuse(reason: "it is \(sourceStatus.kind)") }
        guard let existing = try? fileSystem.statusAt(AT_FDCWD, destination) else { return .copy }
        if existing.identity == sourceStatus.identity { return .refuse(reason: "it is the source itself") }
        if existing.kind == .directory { return .refuse(reason: "a directory is there") }
        if !comparesContent, existing.isUnchangedCopy(of: sourceStatus) {
            return .skip(reason: "same size and time")
        }
        if existing.kind == .regularFile, existing.size == sourceStatus.size,
            let left = digest(of: source, fileSystem: fileSystem),
            left == digest(of: destination, fileSystem: fileSystem)
        {
            return .skip(reason: "same content")
        }
        return overwrite ? .replace : .refuse(reason: "it exists and differs (use --overwrite to replace it)")
    }

    /// The ``ContentDigest`` of the regular file at `path` (a symbolic link is not followed, holes are not
    /// read); nil when unreadable.
    private static func digest(of path: String, fileSystem: FileSystem) -> SHA256Digest? {
        guard let descriptor = try? fileSystem.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0) else {
            return nil
        }
        defer { fileSystem.close(descriptor) }
        guard (try? fileSystem.status(descriptor))?.kind == .regularFile else { return nil }
        let hasher = PipelinedHasher(chunkSize: CopyOptions.defaultChunkSize)
        guard (try? hasher.feedContent(of: descriptor, length: nil, fileSystem: fileSystem)) != nil else { return nil }
        return hasher.state.finalize()
    }
}
