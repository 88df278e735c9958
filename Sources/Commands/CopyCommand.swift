import FileTransfer
import Foundation
import MachineDrivers

/// `statetui copy SOURCE... DEST_DIR [--headless] [--start] [--overwrite]`: copies real files with
/// true pause, resume and cancel, verification before the final name, and crash recovery.
package enum CopyCommand {
    /// The declaration behind parsing and help.
    package static let spec = CommandSpec(
        name: "copy",
        abstract: "Copy files with real pause, resume, cancel, verification and crash recovery.",
        arguments: [
            .init("source", help: "A file to copy; one transfer per file.", isVariadic: true),
            .init("destination", help: "The directory that receives the files; it must exist and be writable."),
        ],
        flags: [
            .init("headless", help: "Run without a terminal: start every transfer and print progress lines."),
            .init("start", help: "Start every transfer at once (the dashboard otherwise waits for 's')."),
            .init("overwrite", help: "Replace destination files that this copy did not write."),
        ],
        discussion: """
            Each file is copied in chunks into a hidden partial file beside its destination
            (.NAME.statetui-partial), verified (size and SHA-256 computed while copying), synced and renamed
            onto its final name. Pause really stops reading and writing; resume continues at the offset
            reached; cancel removes the partial. A journal (.statetui-journal in the destination) records
            intentions, durable checkpoints and outcomes: after a crash or kill, the same command continues
            where the durable data ends and skips files already completed.

            With --headless, one line per change that matters is printed, e.g.
              a.bin: running(request: 1, percent: 40)
              a.bin: completed(file: "/backup/a.bin")
            Exit status: 0 when every transfer completed, 1 when any failed (its reason on standard error),
            2 when the destination is not a writable directory or the arguments are wrong (nothing started),
            130/143 after SIGINT/SIGTERM (partials and journal kept).
            """)

    /// Runs the parsed command.
    static func run(_ command: ParsedCommand, io: CommandIO, environment: [String: String]) throws(UsageError)
        -> Int32
    {
        guard let sources = command.lists["source"], let destination = command.arguments["destination"] else {
            preconditionFailure("Internal inconsistency: copy's spec admitted \(command)")
        }
        let tuning = try CopyTuning(environment: environment)
        let session: CopySession
        do {
            session = try CopySession(
                sources: sources, destinationDirectory: destination, overwrite: command.flags.contains("overwrite"),
                options: tuning.options)
        } catch {
            switch error {
            case .sameName, .unnamedSource:
                throw UsageError(error.description, command: spec.name)
            case .destination:
                io.writeError("statetui: \(error)\n")
                return 2
            }
        }
        for problem in session.journal.problems {
            io.writeError("statetui: \(session.journal.path): \(problem)\n")
        }
        guard command.flags.contains("headless") else {
            return InteractiveCopy.run(
                session, startAll: command.flags.contains("start"), io: io, environment: environment)
        }
        return HeadlessCopy.run(session, io: io)
    }
}
