import DashboardApp
import FileTransfer
import MachineDrivers
import StateMachineInspector

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `statetui copy SOURCE... DEST_DIR [--headless] [--start] [--overwrite] [--no-confirm]`: copies real files and
/// directory trees with true pause, resume and cancel, verification before the final name, and crash
/// recovery.
package enum CopyCommand {
    /// The declaration behind parsing and help.
    package static let spec = CommandSpec(
        name: "copy",
        abstract: "Copy files and directory trees with real pause, resume, cancel, verification and crash recovery.",
        arguments: [
            .init(
                name: "source",
                help: "A file or directory to copy; one transfer per file, a directory with its whole tree.",
                isVariadic: true, completion: .files),
            .init(
                name: "destination", help: "The directory that receives the files; it must exist and be writable.",
                completion: .directories),
        ],
        options: [
            .init(
                name: "exclude", valueName: "glob",
                help:
                    "Leave out entries of a source directory whose path below it matches (repeatable; '/' at the end: directories only).",
                isRepeatable: true),
            .init(
                name: ConfigFile.option, valueName: "file",
                help:
                    "Read the dashboard's configuration (keys, theme, [copy] confirm_quit) from <file> (--headless and --dry-run read only this one).",
                completion: .files),
        ],
        flags: [
            .init(name: "headless", help: "Run without a terminal: start every transfer and print progress lines."),
            .init(name: "start", help: "Start every transfer at once (the dashboard otherwise waits for 's')."),
            .init(
                name: "overwrite",
                help: "Replace destination files that this copy did not write, when they differ from their source."),
            .init(
                name: "dry-run",
                help: "Print what would be copied, skipped or replaced, and write nothing (no directory, no journal)."),
            .init(
                name: "checksum",
                help: "Decide whether a destination file is already the source's by content, not size and time."),
            .init(
                name: "inspectable", help: "Let 'statetui inspect' follow every transfer's machine (as statetui-copy)."),
            .init(
                name: "no-wait",
                help:
                    "Refuse (exit 2) instead of waiting while another statetui copy writes into a destination directory."
            ),
            .init(name: "no-confirm", help: "Quit at once on 'q', without asking while copies are running or paused."),
            .init(
                name: "simulate-faults",
                help: "For testing: 'f' in the dashboard makes the next write fail (said to be simulated)."),
        ],
        discussion: """
            Each file is copied in chunks into a hidden partial file beside its destination
            (.statetui-partial.HASH, a fixed-length name), verified (size and SHA-256 computed while
            copying), synced and renamed onto its final name; a file read in one chunk is written with no
            name (O_TMPFILE) and linked under its final name once complete. Pause really stops reading and writing;
            resume continues at the offset reached; cancel removes the partial. A journal (.statetui-journal in the destination) records
            intentions, durable checkpoints and outcomes: after a crash or kill, the same command continues
            where the durable data ends and skips files already completed. Once every transfer into a
            directory completed (or was cancelled), its journal is removed; a later run finds the copied files
            identical to their sources and skips them. A journal that keeps an earlier run's partial of a
            file this run does not copy (left out, or its source gone) stays, and --headless names it.

            A directory is copied like cp -r: SOURCE_DIR becomes DEST_DIR/NAME with the same tree below it,
            one transfer per regular file (shown by its path, e.g. photos/2024/a.jpg), each directory with
            its own journal, so a rerun after a crash continues every file. Directories are created under
            the destination without following a symbolic link planted there (refused, exit 2). Symbolic
            links are copied as links, never followed, in a tree and on the command line alike (as cp -a
            and rsync -a do; LINK/ with a slash names the directory it leads to); FIFOs, sockets and
            devices are made anew like their sources (mknod, never opened; a device needs root, as with
            cp -a), each with a line ("made (FIFO)"). A directory or entry
            that cannot be read fails alone (named on standard error, exit 1); the rest of its tree is
            copied, as with cp -a. A tree has no bound on its size; its depth is bounded by the
            open-files limit (two descriptors a level: ulimit -n 1024 allows about 500 levels); names
            are bytes (a name that is not UTF-8 is copied as it is, shown as bad\\xFFname).

            What is kept, like cp -a: the bytes, the permission bits (setuid, setgid, sticky included),
            the modification and access times, the owner and group when run as root (otherwise the copy is
            yours, with the source's group where it is one of yours; setuid stays only on a copy of your own
            file, setgid only with the source's group, as cp -a drops them); each directory's
            mode and times (set after its contents); symbolic links as links (target as it is, times);
            FIFOs, sockets and devices as what they are (mode, times, owner as root);
            hard links between the entries copied, in a tree or across sources; extended attributes of
            files, directories, links and special files, ACLs and file capabilities among them (a
            destination that refuses them gets one warning, not a failure). Not kept: file flags (chattr).
            Nothing is wider than its source at any moment: a partial is created 0600 and given the
            source's mode just before the rename; a directory is created 0700; an ACL inherited from a
            destination directory's default ACL is removed when the source has none. Files are read until
            their end, not to the size stat reports (/proc files). A copy onto the source itself (same
            device and inode) is refused ("are the same file"); a directory is never copied into itself (exit 2),
            nor read as part of a tree when a bind mount puts the destination, or the directory itself, inside
            it (that directory fails alone: "it is the destination directory ..."). At most 64
            transfers move bytes at once (fewer under a low 'ulimit -n'); the others wait, shown running.
            The soft limit on open files is raised toward the hard one (at most 65536) before anything is
            opened: each destination directory that receives files keeps a descriptor for the run.

            One run at a time writes into a directory: each journal is locked while its run lives. A second
            statetui copy into a directory in use waits for the first, saying so on standard error
            ("waiting for DIR/.statetui-journal (pid N)"), or in the dashboard on screen, where q stops
            waiting (exit 1, nothing copied); with --no-wait it refuses at once (exit 2), naming the other
            process. A run never removes or renames a partial file it did not write.

            --exclude GLOB (repeatable) leaves out the entries of a source directory whose path below it
            matches GLOB with fnmatch rules ('*' also matches '/'): --exclude '*.tmp' --exclude 'cache/'
            (a trailing '/' matches directories only, which are left out with everything below them; a
            leading '/' or './' anchors a pattern to the source directory as with rsync, its '*' then not
            matching '/': --exclude '/*.log' leaves out the top directory's log files only).

            With --dry-run nothing is written (no directory, no journal): one line per entry says what
            the copy would do ("would copy photos/a.jpg", "would skip a.iso (same size and time)",
            "would replace b.iso", "would link latest", "would skip latest (same link)", "would fail c.iso:
            ..."); exit 1 if any would fail. A journal left by a
            run that was killed is read, not changed: "would resume a.iso at byte N of SIZE (the partial an
            interrupted run left)", or "would copy a.iso from the start, replacing the partial an
            interrupted run left (REASON)"; a directory another run writes into: "would wait for ...".

            A rerun works like rsync: a destination file with its source's size and modification time
            is skipped without being read (--checksum compares content instead); one with the same size
            and content is skipped too; a skipped copy is given its source's mode, owner and times where
            they changed (a file made private since is private in its copy too; a copy that shares its
            inode with other names while its source's file has none, a hard link an earlier run made, is
            copied anew instead, so the other names keep their own). A differing file this copy did not write is
            refused (exit 1) unless --overwrite, which replaces only the files that differ. A directory
            where a file goes is refused before that file is copied; a file or symbolic link where a tree's
            own directory goes is refused before anything is written (exit 2, no journal left), and one
            where a directory of a tree goes fails that directory alone.

            In the dashboard, q while a transfer is running or paused asks first (y quits, n stays);
            --no-confirm quits at once, and Ctrl-C never asks.

            With --headless, one line per change that matters is printed once bytes move, e.g.
              a.bin: running(request: 1, percent: 40)
              a.bin: completed(file: "/backup/a.bin")
            a new file of one chunk (256 KiB) prints only its last line, a file already there only
            "a.bin: skipped (same size and time)", a symbolic link
            "photos/latest: linked -> 2024/a.jpg", a hard link "photos/b.jpg: hard link to photos/a.jpg";
            the summary counts them ("copied 3 files (12 MB), linked 2, skipped 1, failed 0 in 4 s").
            Exit status, in the dashboard (after q) as with --headless: 0 when every transfer completed,
            1 when any failed (its reason on standard error) or did not complete (quit before it finished,
            or cancelled; the same command copies it),
            2 when the destination is not a writable directory or is in use with --no-wait, a source tree is beyond its bounds or the
            arguments are wrong (nothing started),
            130/143/129 after SIGINT/SIGTERM/SIGHUP (partials and journal kept; a SIGHUP ignored with
            nohup stays ignored); the dashboard stops the same way and exits with the same statuses.
            """)

    /// `--dry-run`: one line per entry saying what the copy would do; exit 1 when it would fail some
    /// entry, 2 when the destination or a source tree cannot be used, else 0.
    private static func dryRun(sources: [String], destination: String, command: ParsedCommand, io: CommandIO) -> Int32 {
        let preview: CopyPreview
        do throws(CopySessionError) {
            // What the real run refuses before it writes anything, refused alike.
            let top: DestinationDirectory
            do {
                top = try DestinationDirectory(path: destination)
            } catch {
                throw .destination(error)
            }
            try CopySession.preflight(sources: sources, into: top)
        } catch {
            io.writeError("statetui: \(error)\n")
            return 2
        }
        do {
            preview = try CopyPreview(
                sources: sources, destinationDirectory: destination, overwrite: command.flags.contains("overwrite"),
                comparesContent: command.flags.contains("checksum"), excluding: command.repeated["exclude"] ?? [])
        } catch {
            io.writeError("statetui: \(error)\n")
            return 2
        }
        for entry in preview.entries {
            io.writeOutput("\(entry)\n")
        }
        return preview.hasFailures ? 1 : 0
    }

    /// Runs the parsed command: reads the config and loads libcrypto, opens the session (waiting for another
    /// copy's journal as the flags say), then copies on the dashboard or headless.
    static func run(_ command: ParsedCommand, io: CommandIO, environment: [String: String]) throws(UsageError)
        -> Int32
    {
        guard let sources = command.lists["source"], let destination = command.arguments["destination"] else {
            preconditionFailure("Internal inconsistency: copy's spec admitted \(command)")
        }
        let tuning = try CopyTuning(environment: environment)
        guard let config = configAndHashing(command, io: io, environment: environment) else { return 2 }
        var options = tuning.options
        options.comparesContent = command.flags.contains("checksum")
        if command.flags.contains("dry-run") {
            return dryRun(sources: sources, destination: destination, command: command, io: io)
        }
        // Before the session opens its destination directories (one descriptor each, kept for the run).
        OpenFileLimit.raise()
        let overwrite = command.flags.contains("overwrite")
        let excluding = command.repeated["exclude"] ?? []
        // Only the dashboard's `f` arms a fault, and only with --simulate-faults.
        let simulatesFaults = !command.flags.contains("headless") && command.flags.contains("simulate-faults")
        let makeSession = {
            @Sendable [options] (whenBusy: CopyJournal.WhenBusy) throws(CopySessionError) -> CopySession in
            try CopySession(
                sources: sources, destinationDirectory: destination, overwrite: overwrite, options: options,
                excluding: excluding, whenBusy: whenBusy, simulatesFaults: simulatesFaults)
        }
        switch try openSession(command, makeSession, io: io, environment: environment) {
        case .opened(let session, let files):
            return copy(session, files: files, command: command, config: config, io: io, environment: environment)
        case .stopped(let status):
            return status
        }
    }

    /// Reads the config file and loads libcrypto, before anything is opened or written: a bad file, or no
    /// libcrypto (every copy hashes its journal's name and each file's content), stops the copy with nothing
    /// done. Nil once it said why.
    ///
    /// The usual config file is the dashboard's: a copy without one (`--headless`, `--dry-run`) does not read
    /// it, so a scheduled copy does not stop over a theme it never shows (or a home it may not read); a file
    /// named with `--config` is read and checked by every copy.
    private static func configAndHashing(
        _ command: ParsedCommand, io: CommandIO, environment: [String: String]
    ) -> DashboardConfig? {
        let explicit = command.options[ConfigFile.option]
        let showsDashboard = !command.flags.contains("headless") && !command.flags.contains("dry-run")
        let config: DashboardConfig
        do {
            config =
                showsDashboard || explicit != nil
                ? try ConfigFile.load(explicit: explicit, io: io, environment: environment) : DashboardConfig()
        } catch {
            io.writeError("statetui: \(error)\n")
            return nil
        }
        do throws(LibCryptoError) {
            try SHA256.loadLibrary()
        } catch {
            io.writeError("statetui: \(error)\n")
            return nil
        }
        return config
    }

    /// A session opened for the copy, or the status the copy ends with before it began.
    private enum OpenedSession {
        /// The session, with the dashboard's rows read up front (nil for the headless copy, which reads the trees
        /// as it copies).
        case opened(CopySession, files: CopyFiles?)
        /// Nothing to copy: the run ends with `status` (the dashboard was quit while waiting, or the session
        /// could not open its destination or sources).
        case stopped(Int32)
    }

    /// Opens the session: at once with `--no-wait` (another copy's journal refuses it), else waiting for the
    /// journal, told on standard error (headless) or on the dashboard's terminal.
    private static func openSession(
        _ command: ParsedCommand,
        _ makeSession: @escaping @Sendable (CopyJournal.WhenBusy) throws(CopySessionError) -> CopySession,
        io: CommandIO, environment: [String: String]
    ) throws(UsageError) -> OpenedSession {
        let headless = command.flags.contains("headless")
        do throws(CopySessionError) {
            if command.flags.contains("no-wait") {
                let session = try makeSession(.refuse)
                return .opened(session, files: headless ? nil : session.takeAllFiles())
            } else if headless {
                let session = try makeSession(
                    .wait { journal, holder in
                        let other = holder.map { "pid \($0)" } ?? "another process"
                        io.writeError(
                            "statetui: waiting for \(DisplayText.escaped(journal)) (\(other)): another statetui copy "
                                + "writes into that directory\n")
                    })
                return .opened(session, files: nil)
            } else {
                // The dashboard's terminal shows the wait, if there is one.
                switch InteractiveCopy.open(environment: environment, writeError: io.writeError, session: makeSession) {
                case .opened(let opened, let all): return .opened(opened, files: all)
                case .failed(let error): throw error
                case .stopped(let status): return .stopped(status)
                }
            }
        } catch {
            switch error {
            case .sameName, .unnamedSource:
                throw UsageError(error.description, command: spec.name)
            case .destination, .sourceTree, .intoItself:
                io.writeError("statetui: \(error)\n")
                return .stopped(2)
            }
        }
    }

    /// Copies the session's files on the dashboard (when its rows were read) or headless, its machines
    /// inspectable with `--inspectable`; returns the exit status.
    private static func copy(
        _ session: CopySession, files: CopyFiles?, command: ParsedCommand, config: DashboardConfig, io: CommandIO,
        environment: [String: String]
    ) -> Int32 {
        var inspector: Inspector?
        if command.flags.contains("inspectable") {
            do {
                inspector = try Inspection.start(name: "statetui-copy", environment: environment)
            } catch {
                io.writeError("statetui: cannot be inspectable: \(error)\n")
                return 2
            }
        }
        defer { inspector?.stop() }
        let status =
            if let files {
                InteractiveCopy.run(
                    session, files: files, inspector: inspector, startAll: command.flags.contains("start"),
                    confirmsQuit: !command.flags.contains("no-confirm") && (config.confirmsQuit ?? true),
                    simulatesFaults: command.flags.contains("simulate-faults"), config: config, io: io,
                    environment: environment)
            } else {
                HeadlessCopy.run(session, io: io) { inspector?.register($0.machine.engine) }
            }
        // A directory, link or special file the session could not make is a failed entry, like a failed transfer,
        // counted in the summary's "failed" beside the files: said here too, so the counts on standard error add up.
        guard session.hadFailures, status == 0 || status == 1 else { return status }
        let count = session.failedEntries
        io.writeError(
            "statetui: \(count) other \(count == 1 ? "entry" : "entries") failed (each named above)\n")
        return 1
    }
}
