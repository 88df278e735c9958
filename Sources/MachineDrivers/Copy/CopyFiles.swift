import FileTransfer
import SeedModels
import Support

/// The files of a `statetui copy` dashboard, one row each (``CopySession/takeAllFiles()``), held compactly: a
/// row never started is its name and a few bytes, and its ``CopyTransfer`` (with its machine) is made when the
/// row is first used (``makeDriver(at:)``): started by its key, by `S`, or by `--start`. Once its copy
/// completed, the row may let the transfer go (``settle(_:at:)``) and keep a ``SettledTransfer`` of 64 bytes; a
/// later start makes the transfer again, its machine restored where it ended.
///
/// Each row keeps its file's last name component in one shared byte buffer and the index of its group: the
/// files of one source directory, copied into one destination directory, share the source's and the display's
/// path up to that component and the directory's journal.
package final class CopyFiles: TransferList {
    /// What the files of one directory share: the paths before their last component and the journal.
    private struct Group {
        var sourcePrefix: String
        var displayPrefix: String
        var journal: CopyJournal
    }

    /// A list being read, file by file (``CopySession/takeAllFiles()``).
    struct Builder {
        private var groups: [Group] = []
        private var groupIndex: [GroupKey: Int] = [:]
        private var bytes: [UInt8] = []
        private var ends: [UInt32] = []
        private var groupOf: [UInt32] = []
        private var sizes: [Int64] = []

        private struct GroupKey: Hashable {
            var sourcePrefix: String
            var displayPrefix: String
            var journal: ObjectIdentifier
        }

        /// Adds the file read from `source`, shown as `displayName`, copied into `journal`'s directory, of `size`
        /// bytes when the walk read it (nil: unknown until its copy opens it).
        mutating func add(source: String, displayName: String, journal: CopyJournal, size: Int64? = nil) {
            // Split at the last `/`: what the display shares with the source (the file's own name) is kept
            // once; a file whose display name ends otherwise keeps its whole paths in a group of its own.
            let (sourcePrefix, sourceName) = Self.split(source)
            let (displayPrefix, displayedName) = Self.split(displayName)
            let shared = sourceName == displayedName
            let name = shared ? sourceName : ""
            let key = GroupKey(
                sourcePrefix: shared ? sourcePrefix : source, displayPrefix: shared ? displayPrefix : displayName,
                journal: ObjectIdentifier(journal))
            let group: Int
            if let known = groupIndex[key] {
                group = known
            } else {
                group = groups.count
                groups.append(Group(sourcePrefix: key.sourcePrefix, displayPrefix: key.displayPrefix, journal: journal))
                groupIndex[key] = group
            }
            bytes += name.utf8
            ends.append(UInt32(bytes.count))
            groupOf.append(UInt32(group))
            sizes.append(size ?? -1)
        }

        /// `path` split after its last `/`: the part up to it and the name after it (all of it without one).
        private static func split(_ path: String) -> (prefix: String, name: String) {
            guard let slash = path.lastIndex(of: "/") else { return ("", path) }
            let after = path.index(after: slash)
            return (String(path[..<after]), String(path[after...]))
        }

        /// The list, whose transfers copy with `overwrite` and `sharedOptions`.
        func files(overwrite: Bool, sharedOptions: SharedCopyOptions) -> CopyFiles {
            CopyFiles(
                groups: groups, bytes: bytes, ends: ends, groupOf: groupOf, sizes: sizes, overwrite: overwrite,
                sharedOptions: sharedOptions)
        }
    }

    private let groups: [Group]
    /// Every row's last component, one after another.
    private let bytes: [UInt8]
    /// Where each row's component ends in ``bytes``.
    private let ends: [UInt32]
    private let groupOf: [UInt32]
    /// Each row's size when the list was read; -1 when unknown.
    private let sizes: [Int64]
    private let overwrite: Bool
    private let sharedOptions: SharedCopyOptions
    /// Each row's transfer once made, or what it left once let go.
    private let made: Locked<[Holding?]>

    /// What a row holds once used.
    private enum Holding {
        /// Its transfer, with its machine.
        case transfer(CopyTransfer)
        /// Where its completed transfer ended, once let go.
        case settled(SettledTransfer)

        var transfer: CopyTransfer? {
            guard case .transfer(let transfer) = self else { return nil }
            return transfer
        }

        var settled: SettledTransfer? {
            guard case .settled(let settled) = self else { return nil }
            return settled
        }

        /// The machine's state: the transfer's, or where it ended.
        var state: TransferState {
            switch self {
            case .transfer(let transfer): transfer.machine.state
            case .settled(let settled): settled.model.phase
            }
        }
    }

    private init(
        groups: [Group], bytes: [UInt8], ends: [UInt32], groupOf: [UInt32], sizes: [Int64], overwrite: Bool,
        sharedOptions: SharedCopyOptions
    ) {
        self.groups = groups
        self.bytes = bytes
        self.ends = ends
        self.groupOf = groupOf
        self.sizes = sizes
        self.overwrite = overwrite
        self.sharedOptions = sharedOptions
        made = Locked(Array(repeating: nil, count: ends.count))
    }

    package var count: Int { ends.count }

    /// Row `row`'s last component.
    private func component(_ row: Int) -> String {
        let start = row == 0 ? 0 : Int(ends[row - 1])
        return String(decoding: bytes[start..<Int(ends[row])], as: UTF8.self)
    }

    /// The file's path as a tree copy displays it (`photos/2024/a.jpg`), unescaped: ``CopyTransfer/request``'s id.
    private func displayName(at row: Int) -> String {
        groups[Int(groupOf[row])].displayPrefix + component(row)
    }

    /// The name the row shows, escaped as its transfer's ``CopyTransfer/name``.
    package func name(at row: Int) -> String {
        DisplayText.escaped(displayName(at: row))
    }

    /// Row `row`'s file size when the list was read; nil when it could not be read then.
    package func size(at row: Int) -> Int64? {
        sizes[row] >= 0 ? sizes[row] : nil
    }

    /// Row `row`'s transfer, nil while it was not made, and once it was let go until it is made again.
    package func transfer(at row: Int) -> CopyTransfer? {
        made.withLock { $0[row]?.transfer }
    }

    package func settled(at row: Int) -> SettledTransfer? {
        made.withLock { $0[row]?.settled }
    }

    /// Lets row `row`'s completed transfer go (``TransferList/settle(_:at:)``), and its journal keeps of the
    /// file's entry only the size and digest it wrote (``CopyJournal/condenseCompleted(named:)``): a start makes
    /// the transfer again, which plans against the destination it finds.
    package func settle(_ row: Int, at sequence: Int) -> Bool {
        let journal = groups[Int(groupOf[row])].journal
        guard
            let name = made.withLock({ made -> String? in
                guard let transfer = made[row]?.transfer, let settled = transfer.settled(at: sequence) else {
                    return nil
                }
                made[row] = .settled(settled)
                return transfer.request.name
            })
        else { return false }
        journal.condenseCompleted(named: name)
        return true
    }

    package func driver(at row: Int) -> (any TransferDriver)? {
        transfer(at: row)
    }

    package func makeDriver(at row: Int) -> (driver: any TransferDriver, isNew: Bool) {
        let made = makeTransfer(at: row)
        return (made.transfer, made.isNew)
    }

    /// Row `row`'s transfer, made now when it was not (`isNew`): its machine idle, or restored where the
    /// transfer let go ended; its work registered.
    package func makeTransfer(at row: Int) -> (transfer: CopyTransfer, isNew: Bool) {
        made.withLock { made in
            if let transfer = made[row]?.transfer { return (transfer, false) }
            let group = groups[Int(groupOf[row])]
            let transfer = CopyTransfer(
                source: group.sourcePrefix + component(row), destinationDirectory: group.journal.directory.path,
                overwrite: overwrite, journal: group.journal, sharedOptions: sharedOptions,
                displayName: displayName(at: row), expectedSize: size(at: row), settled: made[row]?.settled)
            made[row] = .transfer(transfer)
            return (transfer, true)
        }
    }

    /// The rows whose transfers were made (and may have been let go since), in row order.
    package var madeRows: [Int] {
        made.withLock { made in made.indices.filter { made[$0] != nil } }
    }

    /// Each row's phase: its machine's (where it ended, once let go), or the model's initial one while it was
    /// not made.
    package var phases: [(name: String, phase: TransferState)] {
        let made = made.withLock { $0 }
        return made.indices.map { row in
            (name(at: row), made[row]?.state ?? TransferModel.initial.phase)
        }
    }
}
