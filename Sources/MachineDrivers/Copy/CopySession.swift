import FileTransfer
import ScreenStates
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The transfers of one `statetui copy` command: one ``CopyTransfer`` per source file and one per
/// regular file of each source directory (copied like `cp -r`, keeping the tree under the destination).
/// Built only after the destination passed its preflight check.
///
/// Every destination directory that receives files has its own journal, so crash recovery covers every
/// file of a tree; the tree's directories are created relative to their open parents and opened without
/// following a symbolic link (``DestinationDirectory/subdirectory(_:)``).
package struct CopySession: Sendable {
    /// The transfers: the sources in the order given, each tree's files depth first.
    package let transfers: [CopyTransfer]
    /// The destination directory's own journal.
    package let journal: CopyJournal
    /// Every journal the transfers use: the destination's first, then one per tree directory with files.
    package let journals: [CopyJournal]
    /// Entries of the source trees that are not copied (symbolic links, FIFOs, sockets, devices).
    package let skipped: [SourceTree.Skipped]
    /// Every tree directory in the destination with its source's status, parents before children: each
    /// is created private (0700) and gets its source's mode and times only at the end (``finish()``).
    private let directories: [(directory: DestinationDirectory, source: FileStatus)]
    /// Files that are hard links to a file copied earlier in the same tree: given their names at the end.
    private let hardLinks: [HardLink]
    private let overwrite: Bool
    /// Entries the session itself could not copy (symbolic links), one message each.
    package let problems: [String]
    private let failures: FailureCount
    private let madeLinks: LinkLog

    /// The links the session made itself, in the order it made them: the tree's symbolic links (made before
    /// any transfer starts), then, after ``finish()``, the files that are hard links to a file copied earlier.
    package var links: [CopiedLink] { madeLinks.all.withLock { $0 } }

    /// How many entries the session copies itself (symbolic and hard links) failed.
    package var failedLinks: Int { failures.count.withLock { $0 } }

    /// True when an entry the session copies itself (a symbolic link, a hard link) failed, which makes the
    /// command fail even if every transfer completed.
    package var hadFailures: Bool { failures.count.withLock { $0 } > 0 }

    /// A second name to give to a copied file: `name` in `directory` for `file` in `fileDirectory`.
    private struct HardLink: Sendable {
        var directory: DestinationDirectory
        var name: String
        var file: String
        var fileDirectory: DestinationDirectory
        /// The link's and the file's paths below the destination, as the output names them.
        var path: String
        var filePath: String
    }

    private let warnings: WarningLog

    /// What the transfers could not keep, one warning per kind and reason (the first file named), so a
    /// destination without extended attributes says so once, not once per file.
    private final class WarningLog: Sendable {
        private let firsts = Locked<[CopyWarning]>([])
        private let reasons = Locked<Set<Int32>>([])

        func add(_ warning: CopyWarning) {
            switch warning {
            case .extendedAttributesNotCopied(_, let reason):
                guard reasons.withLock({ $0.insert(reason.rawValue).inserted }) else { return }
            }
            firsts.withLock { $0.append(warning) }
        }

        var all: [CopyWarning] { firsts.withLock { $0 } }
    }

    /// The links made, shared by the copies of the session value.
    private final class LinkLog: Sendable {
        let all: Locked<[CopiedLink]>
        init(_ links: [CopiedLink]) { all = Locked(links) }
    }

    /// The count of failed entries, shared by the copies of the session value.
    private final class FailureCount: Sendable {
        let count: Locked<Int>
        init(_ count: Int) { self.count = Locked(count) }
    }

    /// Checks the destination, reads the source trees, creates their directories, opens the journals and
    /// prepares one transfer per file.
    ///
    /// Throws `destinationNotWritableDirectory` (nothing started), the journal's failure to open, a tree
    /// beyond its `limits`, or an entry planted where a tree's directory goes. Two sources with the same
    /// name would write the same destination entry: refused up front.
    ///
    /// Each journal's lock makes this session the only writer of its directory: while another process
    /// copies into one, the session waits or refuses, as `whenBusy` says.
    package init(
        sources: [String], destinationDirectory: String, overwrite: Bool, options: CopyOptions,
        limits: SourceTree.Limits = .standard, excluding: [String] = [],
        whenBusy: CopyJournal.WhenBusy = .wait(announce: { _, _ in })
    ) throws(CopySessionError) {
        let fileSystem = options.fileSystem
        let warnings = WarningLog()
        var options = options
        let forward = options.warn
        options.warn = { warning in
            warnings.add(warning)
            forward(warning)
        }
        let top: DestinationDirectory
        do {
            top = try DestinationDirectory(path: destinationDirectory, fileSystem: fileSystem)
        } catch {
            throw .destination(error)
        }
        var seen: [String: String] = [:]
        for source in sources {
            let name = CopyRequest(id: "", source: source, destinationDirectory: destinationDirectory).name
            guard !name.isEmpty, name != ".", name != ".." else { throw .unnamedSource(source) }
            if let other = seen[name] { throw .sameName(name, first: other, second: source) }
            seen[name] = source
        }
        // Every tree is read before anything is written, so a tree beyond its bounds leaves no trace.
        var trees: [String: SourceTree] = [:]
        for source in sources where (try? fileSystem.statusAt(AT_FDCWD, source))?.kind == .directory {
            // Only a directory itself (not a symbolic link to one) is copied as a tree, never into itself.
            if let root = try? fileSystem.statusOfPath(source), top.isWithin(root.identity) {
                throw .intoItself(source: source)
            }
            do {
                trees[source] = try SourceTree.walk(
                    source, limits: limits, excluding: excluding, fileSystem: fileSystem)
            } catch {
                throw .sourceTree(error)
            }
        }
        do {
            journal = try CopyJournal(directory: top, whenBusy: whenBusy)
        } catch {
            throw .destination(error)
        }
        var journals = [journal]
        var transfers: [CopyTransfer] = []
        var directories: [(directory: DestinationDirectory, source: FileStatus)] = []
        var hardLinks: [HardLink] = []
        var problems: [String] = []
        var links: [CopiedLink] = []
        for source in sources {
            guard let tree = trees[source] else {
                transfers.append(
                    CopyTransfer(
                        source: source, destinationDirectory: destinationDirectory, overwrite: overwrite,
                        journal: journal, options: options))
                continue
            }
            var opened: [[String]: (directory: DestinationDirectory, journal: CopyJournal?)] = [[]: (top, journal)]
            let holdsFiles = Set(tree.files.map(\.directory))
            for components in tree.directories {
                guard let parent = opened[Array(components.dropLast())], let name = components.last else {
                    preconditionFailure("Internal inconsistency: \(components) listed before its parent")
                }
                do {
                    let directory = try parent.directory.subdirectory(name)
                    let sourcePath = ([source] + components.dropFirst()).joined(separator: "/")
                    let sourceStatus =
                        components.count == 1
                        ? try? fileSystem.statusOfPath(sourcePath) : try? fileSystem.statusAt(AT_FDCWD, sourcePath)
                    if let sourceStatus { directories.append((directory, sourceStatus)) }
                    let directoryJournal =
                        holdsFiles.contains(components)
                        ? try CopyJournal(directory: directory, whenBusy: whenBusy) : nil
                    opened[components] = (directory, directoryJournal)
                    if let directoryJournal { journals.append(directoryJournal) }
                } catch {
                    throw .destination(error)
                }
            }
            for link in tree.links {
                guard let directory = opened[link.directory]?.directory else {
                    preconditionFailure("Internal inconsistency: no directory for the link \(link.source)")
                }
                do throws(TransferError) {
                    let status: FileStatus
                    let target: String
                    do throws(Errno) {
                        status = try fileSystem.statusAt(AT_FDCWD, link.source)
                        target = try fileSystem.readLinkAt(AT_FDCWD, link.source)
                    } catch {
                        throw TransferError.sourceUnreadable(path: link.source, reason: error)
                    }
                    let made = try directory.copySymbolicLink(
                        link.name, target: target, source: status, overwrite: overwrite)
                    let path = (link.directory + [link.name]).joined(separator: "/")
                    links.append(made ? .symbolic(path: path, target: target) : .sameSymbolic(path: path))
                } catch {
                    problems.append(error.description)
                }
            }
            var copies: [String: (directory: DestinationDirectory, name: String)] = [:]
            for file in tree.files {
                guard let journal = opened[file.directory]?.journal else {
                    preconditionFailure("Internal inconsistency: no journal for \(file.relativePath)")
                }
                if let first = file.sameFileAs, let copy = copies[first] {
                    hardLinks.append(
                        HardLink(
                            directory: journal.directory, name: file.name, file: copy.name,
                            fileDirectory: copy.directory, path: file.relativePath, filePath: first))
                    continue
                }
                copies[file.relativePath] = (journal.directory, file.name)
                transfers.append(
                    CopyTransfer(
                        source: file.source, destinationDirectory: journal.directory.path, overwrite: overwrite,
                        journal: journal, options: options, displayName: file.relativePath))
            }
        }
        self.journals = journals
        self.directories = directories
        self.hardLinks = hardLinks
        self.problems = problems
        self.overwrite = overwrite
        failures = FailureCount(problems.count)
        madeLinks = LinkLog(links)
        self.warnings = warnings
        self.skipped = sources.flatMap { trees[$0]?.skipped ?? [] }
        self.transfers = transfers
    }

    /// Ends the session's work on the disk: gives the files that were hard links in the source their second
    /// names (once their first name is copied), removes every journal whose transfers all completed or
    /// were cancelled (nothing left to recover), then gives each tree directory its source's mode and times,
    /// children before parents (as `cp -a` does after a directory's contents, so a read-only directory
    /// is still writable while it is filled and no directory time is changed by a later entry). Returns
    /// a message for each step that failed.
    package func finish() -> [String] {
        var problems = journals.compactMap { journal -> String? in
            do throws(TransferError) {
                try journal.removeIfSettled()
                return nil
            } catch {
                return error.description
            }
        }
        for link in hardLinks {
            do throws(TransferError) {
                let made = try link.directory.link(
                    link.name, to: link.file, in: link.fileDirectory, overwrite: overwrite)
                let copied: CopiedLink =
                    made ? .hard(path: link.path, to: link.filePath) : .sameHard(path: link.path, to: link.filePath)
                madeLinks.all.withLock { $0.append(copied) }
            } catch {
                problems.append(error.description)
                failures.count.withLock { $0 += 1 }
            }
        }
        problems += warnings.all.map { "warning: \($0) (and the same for any other file)" }
        for (directory, source) in directories.reversed() {
            do throws(TransferError) {
                try directory.copyMetadata(from: source)
            } catch {
                problems.append(error.description)
            }
        }
        return problems
    }

    /// ``finish()`` under its earlier name, which the headless and interactive copy still call.
    package func removeSettledJournals() -> [String] {
        finish()
    }
}

/// A link a ``CopySession`` made itself rather than through a transfer, named by its path below the destination.
package enum CopiedLink: Hashable, Sendable, CustomStringConvertible {
    /// A symbolic link copied as a link, with its target as it is.
    case symbolic(path: String, target: String)
    /// A symbolic link already there with the same target (a rerun): left as it is.
    case sameSymbolic(path: String)
    /// A file that is a hard link to a file copied earlier in the tree, given that file's second name.
    case hard(path: String, to: String)
    /// The same hard link already there (a rerun): left as it is.
    case sameHard(path: String, to: String)

    /// Whether the link was already there: a rerun skipped it.
    package var wasThere: Bool {
        switch self {
        case .symbolic, .hard: false
        case .sameSymbolic, .sameHard: true
        }
    }

    /// The headless line, every name escaped: `photos/latest: linked -> 2024/a.jpg`,
    /// `photos/b.jpg: hard link to photos/a.jpg`, `photos/latest: skipped (same link)`.
    package var description: String {
        switch self {
        case .symbolic(let path, let target):
            "\(DisplayText.escaped(path)): linked -> \(DisplayText.escaped(target))"
        case .sameSymbolic(let path):
            "\(DisplayText.escaped(path)): skipped (same link)"
        case .hard(let path, let file):
            "\(DisplayText.escaped(path)): hard link to \(DisplayText.escaped(file))"
        case .sameHard(let path, let file):
            "\(DisplayText.escaped(path)): skipped (already a hard link to \(DisplayText.escaped(file)))"
        }
    }
}

/// Why a copy session could not be prepared: nothing was started.
package enum CopySessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The destination is not a writable directory, or its journal cannot be opened.
    case destination(TransferError)
    /// Two sources share a file name, so both would be copied onto one destination file.
    case sameName(String, first: String, second: String)
    /// A source path has no file name to copy onto (`/`, `.`, `..`).
    case unnamedSource(String)
    /// A source directory is beyond the bounds of a tree copy or cannot be read.
    case sourceTree(SourceTreeError)
    /// A source directory holds the destination: its copy would be copied into itself without end.
    case intoItself(source: String)

    /// One line naming the cause.
    package var description: String {
        switch self {
        case .destination(let error):
            error.description
        case .sameName(let name, let first, let second):
            "\(DisplayText.escaped(first)) and \(DisplayText.escaped(second)) would both be copied to "
                + "'\(DisplayText.escaped(name))'"
        case .unnamedSource(let source):
            "'\(DisplayText.escaped(source))' names no file to copy"
        case .sourceTree(let error):
            error.description
        case .intoItself(let source):
            "cannot copy the directory \(DisplayText.escaped(source)) into itself: the destination lies inside it"
        }
    }
}
