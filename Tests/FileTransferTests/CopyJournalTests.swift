import Foundation
import Support
import Testing

@testable import FileTransfer

/// The journal: its line format, replay, damaged lines, and reconciliation after a crash.
@Suite struct CopyJournalTests {
    static let chunk = CopyJobTests.chunk
    static let status = FileStatus(size: 100, modifiedNanoseconds: 5, isDirectory: false, isRegularFile: true)
    static let digest = SHA256.hash(Array("x".utf8))

    static func intent(_ name: String = "a") -> JournalRecord {
        .intent(name: name, request: "r1", source: "/src/\(name)", sourceStatus: status, replaces: nil)
    }

    static func content(of records: [JournalRecord]) -> [UInt8] {
        records.flatMap { CopyJournal.line(for: $0) }
    }

    // MARK: Replay

    @Test func replayFoldsRecordsIntoOneEntryPerName() {
        let replay = CopyJournal.replay(
            Self.content(of: [
                Self.intent("a"), Self.intent("b"), .checkpoint(name: "a", offset: 64),
                .checkpoint(name: "b", offset: 32),
                .committing(name: "b", size: 100, digest: Self.digest),
                .completed(name: "b", size: 100, digest: Self.digest),
                .checkpoint(name: "a", offset: 96), .failed(name: "a", reason: "no room"),
            ]))
        #expect(replay.problems == [])
        #expect(
            replay.entries == [
                "a": JournalEntry(
                    request: "r1", source: "/src/a", sourceStatus: Self.status, durableOffset: 96,
                    status: .failed(reason: "no room"), ownedDigest: nil),
                "b": JournalEntry(
                    request: "r1", source: "/src/b", sourceStatus: Self.status, durableOffset: 100,
                    status: .completed(size: 100, digest: Self.digest), ownedDigest: Self.digest),
            ])
    }

    @Test func aNewIntentStartsOverButRemembersTheFileItOwns() {
        let replay = CopyJournal.replay(
            Self.content(of: [
                Self.intent(), .completed(name: "a", size: 100, digest: Self.digest), .checkpoint(name: "a", offset: 7),
                Self.intent(), .cancelled(name: "a"),
            ]))
        #expect(
            replay.entries["a"]
                == JournalEntry(
                    request: "r1", source: "/src/a", sourceStatus: Self.status, durableOffset: 0, status: .cancelled,
                    ownedDigest: Self.digest))
    }

    /// A fresh commitment (a file with no name's) replays as its intention followed by its commitment would, over no
    /// entry or over an earlier run's (whose owned file it keeps, as an intent replacing nothing does), and the
    /// completion after it completes it.
    @Test(
        arguments: [
            ([], nil),
            ([intent(), .completed(name: "a", size: 100, digest: digest)], digest),
            ([intent(), .checkpoint(name: "a", offset: 7), .failed(name: "a", reason: "no room")], nil),
        ] as [([JournalRecord], SHA256Digest?)])
    func aFreshCommitmentIsItsIntentionAndCommitmentInOne(before: [JournalRecord], owned: SHA256Digest?) {
        let fresh = SHA256.hash(Array("fresh".utf8))
        let intention = JournalRecord.Intention(request: "r2", source: "/src2/a", sourceStatus: Self.status)
        let after: [JournalRecord] = [.completed(name: "a", size: 3, digest: fresh)]
        let combined = CopyJournal.replay(
            Self.content(of: before + [.committingFresh(name: "a", intention: intention, size: 3, digest: fresh)]))
        let separate = CopyJournal.replay(
            Self.content(
                of: before + [
                    .intent(intention: intention, name: "a"), .committing(name: "a", size: 3, digest: fresh),
                ]))
        #expect(combined.problems == [])
        #expect(combined.entries == separate.entries)
        #expect(
            combined.entries["a"]
                == JournalEntry(
                    request: "r2", source: "/src2/a", sourceStatus: Self.status, durableOffset: 3,
                    status: .committing(size: 3, digest: fresh),
                    ownedDigest: owned))
        let completed = CopyJournal.replay(
            Self.content(
                of: before + [.committingFresh(name: "a", intention: intention, size: 3, digest: fresh)] + after))
        #expect(completed.entries["a"]?.status == .completed(size: 3, digest: fresh))
        #expect(completed.entries["a"]?.ownedDigest == fresh)
    }

    @Test func recordsWithoutAnIntentAreIgnored() {
        let replay = CopyJournal.replay(Self.content(of: [.checkpoint(name: "a", offset: 7)]))
        #expect(replay.entries == [:])
        #expect(replay.problems == [])
    }

    @Test func aLineIsChecksumThenJSON() {
        let line = String(decoding: CopyJournal.line(for: .checkpoint(name: "a", offset: 7)), as: UTF8.self)
        let json = #"{"checkpoint":{"name":"a","offset":7}}"#
        #expect(line == String(SHA256.hash(Array(json.utf8)).hex.prefix(16)) + " " + json + "\n")
    }

    @Test func corruptAndTruncatedLinesAreReportedAndMarkTheirTransferDamaged() {
        var content = Self.content(of: [Self.intent("a"), .checkpoint(name: "a", offset: 64), Self.intent("b")])
        // Flip one digit of a's checkpoint offset: the checksum no longer matches.
        let line2 = String(decoding: CopyJournal.line(for: .checkpoint(name: "a", offset: 64)), as: UTF8.self)
        let start = CopyJournal.line(for: Self.intent("a")).count
        let digitIndex = start + Array(line2.utf8).firstIndex(of: UInt8(ascii: "6"))!
        content[digitIndex] = UInt8(ascii: "9")
        content += Array("garbage without a name\n".utf8)
        content += CopyJournal.line(for: .checkpoint(name: "b", offset: 32)).dropLast(9)

        let replay = CopyJournal.replay(content)
        #expect(
            replay.problems == [
                JournalProblem(line: 2, reason: "checksum mismatch", name: "a"),
                JournalProblem(line: 4, reason: "not a checksummed record", name: nil),
                JournalProblem(line: 5, reason: "truncated line (no newline at its end)", name: "b"),
            ])
        #expect(replay.entries.mapValues(\.status) == ["a": .damaged, "b": .damaged])
        #expect(
            replay.problems.map(\.description) == [
                "journal line 2: checksum mismatch (affects \"a\", which restarts)",
                "journal line 4: not a checksummed record",
                "journal line 5: truncated line (no newline at its end) (affects \"b\", which restarts)",
            ])
    }

    @Test func openingATornJournalStartsTheNextRecordOnItsOwnLine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file(CopyJournal.fileName)
        try write(Self.content(of: [Self.intent()]) + Array("0123456789abcdef {\"checkp".utf8), to: path)
        let journal = try CopyJournal(directory: directory.path)
        #expect(
            journal.problems == [JournalProblem(line: 2, reason: "truncated line (no newline at its end)", name: nil)])
        try journal.append(Self.intent("b"))
        let reopened = try CopyJournal(directory: directory.path)
        #expect(reopened.problems == [JournalProblem(line: 2, reason: "checksum mismatch", name: nil)])
        #expect(reopened.entries.keys.sorted() == ["a", "b"])
    }

    // MARK: Reconciliation after a crash

    /// What was on disk when the process died.
    enum CrashPoint: String, CaseIterable, CustomTestStringConvertible {
        case intentWithoutPartial, partialWithoutCheckpoint, checkpointAndUndurableTail,
            committedButNotRenamed, renamedButNotRecorded, completed

        var testDescription: String { rawValue }
    }

    struct Expectation: Equatable {
        var outcomeIsAlreadyComplete: Bool
        /// Offset of the first source read of the copy loop (nil: no copying).
        var copyStartsAt: Int64?
        /// Bytes of the source re-read to check a kept prefix.
        var prefixChecked: Int64
    }

    @Test(arguments: CrashPoint.allCases)
    func reconcilingAfterACrashFinishesWithoutCopyingTwice(crash: CrashPoint) async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        let size = Int64(fixture.content.count)
        let digest = ContentDigest.of(fixture.content)
        let status = try FileSystem.posix.statusOfPath(fixture.source)
        let intent = JournalRecord.intent(
            name: "source.bin", request: "1", source: fixture.source,
            sourceStatus: status, replaces: nil)
        let chunk = Int64(Self.chunk)
        let records: [JournalRecord]
        let partial: [UInt8]?
        var final: [UInt8]? = nil
        let expected: Expectation
        switch crash {
        case .intentWithoutPartial:
            records = [intent]
            partial = nil
            expected = Expectation(outcomeIsAlreadyComplete: false, copyStartsAt: 0, prefixChecked: 0)
        case .partialWithoutCheckpoint:
            records = [intent]
            partial = Array(fixture.content[..<Int(2 * chunk + 100)])
            expected = Expectation(outcomeIsAlreadyComplete: false, copyStartsAt: 0, prefixChecked: 0)
        case .checkpointAndUndurableTail:
            records = [intent, .checkpoint(name: "source.bin", offset: 3 * chunk)]
            partial = Array(fixture.content[..<Int(5 * chunk)]) + [0xde, 0xad]
            expected = Expectation(outcomeIsAlreadyComplete: false, copyStartsAt: 3 * chunk, prefixChecked: 3 * chunk)
        case .committedButNotRenamed:
            records = [
                intent, .checkpoint(name: "source.bin", offset: 3 * chunk),
                .committing(name: "source.bin", size: size, digest: digest),
            ]
            partial = fixture.content
            expected = Expectation(outcomeIsAlreadyComplete: false, copyStartsAt: nil, prefixChecked: size)
        case .renamedButNotRecorded:
            records = [intent, .committing(name: "source.bin", size: size, digest: digest)]
            partial = nil
            final = fixture.content
            expected = Expectation(outcomeIsAlreadyComplete: true, copyStartsAt: nil, prefixChecked: 0)
        case .completed:
            records = [
                intent, .committing(name: "source.bin", size: size, digest: digest),
                .completed(name: "source.bin", size: size, digest: digest),
            ]
            partial = nil
            final = fixture.content
            expected = Expectation(outcomeIsAlreadyComplete: true, copyStartsAt: nil, prefixChecked: 0)
        }
        try write(Self.content(of: records), to: fixture.destination + "/" + CopyJournal.fileName)
        if let partial { try write(partial, to: fixture.partialPath) }
        if let final { try write(final, to: fixture.finalPath) }

        let journal = try CopyJournal(directory: fixture.destination)
        #expect(journal.problems == [])
        let outcome = try await fixture.job(journal: journal).run()

        // Reads that found bytes: the one that finds the end of the file copies nothing.
        let reads = fixture.sourceReads().compactMap { entry -> Int64? in
            if case .read(_, let offset, let count) = entry, count > 0 { offset } else { nil }
        }
        let prefixReads = Int64(reads.prefix { $0 < expected.prefixChecked }.count)
        #expect(prefixReads * chunk >= expected.prefixChecked)
        let copyReads = reads.dropFirst(Int(prefixReads))
        let observed = Expectation(
            outcomeIsAlreadyComplete: outcome == .alreadyComplete(fixture.committed),
            copyStartsAt: copyReads.first, prefixChecked: min(prefixReads * chunk, expected.prefixChecked))
        #expect(observed == expected)
        #expect([CopyOutcome.completed(fixture.committed), .alreadyComplete(fixture.committed)].contains(outcome))
        #expect(contents(of: fixture.finalPath) == fixture.content)
        #expect(!exists(fixture.partialPath))
        #expect(journal.entry(named: "source.bin")?.status == .completed(size: size, digest: digest))
    }

    /// Drives a real copy, with its writes inline or in the background, freezes it mid-way (the copy thread
    /// held once it handed in `stopAfterChunks` chunks, before it reads the next, and once the checkpoints
    /// queued so far are durable), and copies the destination
    /// directory as a crash would leave it; a new run against that copy must pick up at the checkpoint.
    @Test(arguments: [1, 4, 5, 9], [false, true])
    func aCopyStoppedAbruptlyResumesAtItsLastDurableCheckpoint(stopAfterChunks: Int, inBackground: Bool) async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        let stopAt = Int64(stopAfterChunks * Self.chunk)
        let checkpoint = Int64(stopAfterChunks / 2 * 2 * Self.chunk)
        // The last checkpoint is durable once an fsync of the journal that began after its line was written
        // has returned: the journal's file system says when.
        let checkpointLine = CopyJournal.line(for: .checkpoint(name: "source.bin", offset: checkpoint))
        let lineWritten = Locked(false)
        let durable = DispatchSemaphore(value: 0)
        var journalFiles = FileSystem.posix
        journalFiles.calls.append = { descriptor, bytes throws(Errno) in
            let count = try FileSystem.posix.append(descriptor, bytes)
            if Array(bytes) == checkpointLine { lineWritten.withLock { $0 = true } }
            return count
        }
        journalFiles.calls.sync = { descriptor throws(Errno) in
            let covers = lineWritten.withLock { $0 }
            try FileSystem.posix.sync(descriptor)
            if covers { durable.signal() }
        }
        let journal = try CopyJournal(directory: fixture.destination, fileSystem: journalFiles)
        let crashed = try fixture.directory.directory("crashed")
        let stopping = Locked<CopyJob?>(nil)
        let crash = MidRun(at: stopAt) {
            // Checkpoints are made durable in the background; no new one is queued while this runs.
            if checkpoint > 0 && durable.wait(timeout: .now() + .seconds(20)) == .timedOut {
                throw CheckpointNeverDurable(offset: checkpoint)
            }
            for name in [CopyJournal.fileName, StagedFile.partialName(for: "source.bin")] {
                try FileManager.default.copyItem(
                    atPath: fixture.destination + "/" + name, toPath: crashed + "/" + name)
            }
            stopping.withLock { $0 }?.cancel()
        }
        var options = fixture.options(checkpointEvery: 2)
        if inBackground {
            options.writeInBackground()
        }
        let job = fixture.job(journal: journal, options: options)
        stopping.withLock { $0 = job }
        #expect(try await job.run(progress: crash.progress) == .cancelled)
        #expect(crash.report.calls == 1 && crash.report.thrown == [])

        let recovered = try CopyJournal(directory: crashed)
        #expect(recovered.entry(named: "source.bin")?.durableOffset == checkpoint)
        let log = CallLog()
        let request = CopyRequest(id: "1", source: fixture.source, destinationDirectory: crashed)
        let outcome = try await CopyJob(
            request: request, journal: recovered,
            options: CopyOptions(chunkSize: Self.chunk, fileSystem: log.fileSystem())
        ).run()
        #expect(
            outcome
                == .completed(
                    CommittedFile(
                        path: crashed + "/source.bin", size: Int64(fixture.content.count),
                        digest: ContentDigest.of(fixture.content))))
        #expect(contents(of: crashed + "/source.bin") == fixture.content)
        #expect(!exists(crashed + "/" + StagedFile.partialName(for: "source.bin")))
        let firstWrite = log.all.first { if case .write = $0 { true } else { false } }
        #expect(
            firstWrite
                == .write(
                    path: crashed + "/" + StagedFile.partialName(for: "source.bin"), offset: checkpoint,
                    count: Self.chunk))
    }

    /// The copy's checkpoint at `offset` was not made durable within the bound (the background fsync hangs).
    struct CheckpointNeverDurable: Error {
        let offset: Int64
    }

    @Test func aDamagedJournalLineRestartsItsTransferCleanly() async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        let status = try FileSystem.posix.statusOfPath(fixture.source)
        let intent = JournalRecord.intent(
            name: "source.bin", request: "1", source: fixture.source,
            sourceStatus: status, replaces: nil)
        var checkpoint = CopyJournal.line(for: .checkpoint(name: "source.bin", offset: Int64(3 * Self.chunk)))
        checkpoint[0] = checkpoint[0] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        try write(CopyJournal.line(for: intent) + checkpoint, to: fixture.destination + "/" + CopyJournal.fileName)
        // The partial holds garbage: resuming it would corrupt the copy.
        try write([UInt8](repeating: 0xee, count: 5 * Self.chunk), to: fixture.partialPath)

        let journal = try CopyJournal(directory: fixture.destination)
        #expect(journal.problems == [JournalProblem(line: 2, reason: "checksum mismatch", name: "source.bin")])
        let outcome = try await fixture.job(journal: journal).run()
        #expect(outcome == .completed(fixture.committed))
        #expect(fixture.sourceReads() == CopyJobTests.chunkReads(of: fixture, from: 0))
        #expect(contents(of: fixture.finalPath) == fixture.content)
    }

    @Test func aPartialWhoseSourceChangedSinceTheCheckpointRestarts() async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        let status = try FileSystem.posix.statusOfPath(fixture.source)
        let journal = try CopyJournal(directory: fixture.destination)
        try journal.append(
            .intent(
                name: "source.bin", request: "1", source: fixture.source, sourceStatus: status,
                replaces: nil))
        try journal.append(.checkpoint(name: "source.bin", offset: Int64(2 * Self.chunk)))
        // Same size and time as journaled, but the partial's bytes are not the source's prefix.
        try write(pattern(count: 2 * Self.chunk, seed: 42), to: fixture.partialPath)
        let outcome = try await fixture.job(journal: journal).run()
        #expect(outcome == .completed(fixture.committed))
        #expect(contents(of: fixture.finalPath) == fixture.content)
    }

    @Test func aFileThisJournalWroteIsReplacedWhenTheSourceChanges() async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        let journal = try CopyJournal(directory: fixture.destination)
        #expect(try await fixture.job(journal: journal).run() == .completed(fixture.committed))
        #expect(try await fixture.job(journal: journal).run() == .alreadyComplete(fixture.committed))

        let newer = pattern(count: 3 * Self.chunk, seed: 3)
        try write(newer, to: fixture.source)
        try setModificationTime(of: fixture.source, seconds: 3_000_000)
        let outcome = try await fixture.job(journal: journal).run()
        #expect(
            outcome
                == .completed(
                    CommittedFile(
                        path: fixture.finalPath, size: Int64(newer.count),
                        digest: ContentDigest.of(newer))))
        #expect(contents(of: fixture.finalPath) == newer)
    }

    @Test func aFileChangedBySomeoneElseAfterTheCopyIsNotOverwritten() async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        let journal = try CopyJournal(directory: fixture.destination)
        #expect(try await fixture.job(journal: journal).run() == .completed(fixture.committed))
        try write([7, 7, 7], to: fixture.finalPath)
        await #expect(throws: TransferError.destinationExists(path: fixture.finalPath)) {
            try await fixture.job(journal: journal).run()
        }
        #expect(contents(of: fixture.finalPath) == [7, 7, 7])
    }
}

@Suite struct SharedJournalTests {
    @Test func concurrentCopiesShareOneJournal() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = try directory.directory("out")
        let sources = (0..<4).map { pattern(count: 20_000 + $0 * 3000, seed: UInt64($0 + 10)) }
        for (index, content) in sources.enumerated() {
            try write(content, to: directory.file("file\(index).bin"))
        }
        let journal = try CopyJournal(directory: destination)
        let options = CopyOptions(chunkSize: 4096, checkpointInterval: 8192)
        let outcomes = try await withThrowingTaskGroup(of: CopyOutcome.self) { group in
            for index in sources.indices {
                let request = CopyRequest(
                    id: "\(index)", source: directory.file("file\(index).bin"),
                    destinationDirectory: destination)
                group.addTask { try await CopyJob(request: request, journal: journal, options: options).run() }
            }
            return try await group.reduce(into: [CopyOutcome]()) { $0.append($1) }
        }
        let expected = sources.enumerated().map { index, content in
            CopyOutcome.completed(
                CommittedFile(
                    path: destination + "/file\(index).bin", size: Int64(content.count),
                    digest: ContentDigest.of(content)))
        }
        #expect(Set(outcomes) == Set(expected))
        let reopened = try CopyJournal(directory: destination)
        #expect(reopened.problems == [])
        #expect(
            reopened.entries.mapValues(\.status)
                == Dictionary(
                    uniqueKeysWithValues: sources.enumerated().map {
                        (
                            "file\($0).bin",
                            JournalEntry.Status.completed(size: Int64($1.count), digest: ContentDigest.of($1))
                        )
                    }))
        for (index, content) in sources.enumerated() {
            #expect(contents(of: destination + "/file\(index).bin") == content)
        }
    }
}

/// The journal reader's bounds: pieces of any size, overlong lines, the number of problems, quotes.
@Suite struct JournalReaderTests {
    static let records: [JournalRecord] = [
        CopyJournalTests.intent("a"), .checkpoint(name: "a", offset: 10), CopyJournalTests.intent("b"),
        .completed(name: "a", size: 100, digest: CopyJournalTests.digest),
    ]

    /// Feeding the bytes in pieces of any size gives exactly what one piece gives.
    @Test(arguments: [1, 2, 7, 64, 1000])
    func piecesOfAnySizeReplayAlike(pieceSize: Int) {
        let content = CopyJournalTests.content(of: Self.records) + Array("garbage\nhalf a li".utf8)
        var reader = JournalReader()
        var start = 0
        while start < content.count {
            reader.consume(Array(content[start..<min(start + pieceSize, content.count)]))
            start += pieceSize
        }
        let whole = CopyJournal.replay(content)
        let pieces = reader.finish()
        #expect(pieces.entries == whole.entries)
        #expect(pieces.problems == whole.problems)
        #expect(
            whole.problems == [
                JournalProblem(line: 5, reason: "not a checksummed record", name: nil),
                JournalProblem(line: 6, reason: "truncated line (no newline at its end)", name: nil),
            ])
    }

    /// A journal naming more files than its directory can have held keeps the names up to the bound, reads
    /// the records of names it already keeps until then, and counts every line from the first name too many
    /// in one problem without reading it.
    @Test func aJournalNamingTooManyFilesIsReadOnlyUpToItsBound() {
        let records: [JournalRecord] = [
            CopyJournalTests.intent("a"), CopyJournalTests.intent("b"), .checkpoint(name: "a", offset: 10),
            CopyJournalTests.intent("c"), .completed(name: "a", size: 100, digest: CopyJournalTests.digest),
            CopyJournalTests.intent("d"),
        ]
        var reader = JournalReader(maximumNames: 2)
        reader.consume(CopyJournalTests.content(of: records))
        let bounded = reader.finish()
        let upToTheBound = CopyJournal.replay(CopyJournalTests.content(of: Array(records.prefix(3))))
        #expect(bounded.entries == upToTheBound.entries)
        #expect(
            bounded.problems == [
                JournalProblem(
                    line: 4,
                    reason:
                        "names more than 2 files, more than this directory can have held: lines 4 to 6 are not read",
                    name: nil)
            ])
    }

    /// Empty lines, any number of them and anywhere, only move the line count.
    @Test(arguments: [0, 1, 3, 70_000])
    func runsOfEmptyLinesAreSkipped(count: Int) {
        let newlines = [UInt8](repeating: UInt8(ascii: "\n"), count: count)
        let content = newlines + CopyJournalTests.content(of: Self.records) + newlines + Array("garbage\n".utf8)
        let replayed = CopyJournal.replay(content)
        #expect(replayed.entries == CopyJournal.replay(CopyJournalTests.content(of: Self.records)).entries)
        #expect(
            replayed.problems == [JournalProblem(line: 2 * count + 5, reason: "not a checksummed record", name: nil)])
    }

    /// A line longer than the limit is reported with its length and skipped; the lines after it are read.
    @Test func anOverlongLineIsReportedAndSkipped() {
        let long =
            Array(#"0123456789abcdef {"checkpoint":{"name":"a","offset":"#.utf8)
            + [UInt8](repeating: UInt8(ascii: "9"), count: JournalReader.maximumLineLength) + Array("}}\n".utf8)
        let content =
            CopyJournalTests.content(of: [CopyJournalTests.intent("a")]) + long
            + CopyJournalTests.content(of: [CopyJournalTests.intent("b")])
        let replay = CopyJournal.replay(content)
        #expect(
            replay.problems == [
                JournalProblem(
                    line: 2, reason: "line of \(long.count - 1) bytes, longer than the limit of 65536", name: "a")
            ])
        #expect(replay.entries["a"]?.status == .damaged)
        #expect(replay.entries["b"]?.status == .inProgress)
    }

    /// A journal of nothing but damaged lines lists the first hundred and counts the rest in one line.
    @Test func problemsAreListedUpToTheLimitAndCounted() {
        let content = Array(String(repeating: "x\n", count: 250).utf8)
        let problems = CopyJournal.replay(content).problems
        #expect(problems.count == JournalReader.maximumProblems + 1)
        #expect(problems.last == JournalProblem(line: 250, reason: "and 150 more damaged lines, not listed", name: nil))
    }

    /// A problem prints on one line, quoting at most 200 characters of the name and of the reason.
    @Test func aProblemQuotesAtMostTwoHundredCharactersOnOneLine() {
        let problem = JournalProblem(
            line: 3, reason: String(repeating: "r", count: 5000),
            name: "evil\n\u{1B}[2J" + String(repeating: "n", count: 300))
        let text = problem.description
        #expect(!text.contains("\n") && !text.contains("\u{1B}"))
        #expect(
            text
                == "journal line 3: " + String(repeating: "r", count: 200) + "…(4800 more) (affects \"evil\\n\\u{1B}[2J"
                + String(repeating: "n", count: 191) + "…(109 more)\", which restarts)")
    }
}

/// Copies appending to one journal at the same time share its fsyncs (group commit), and none returns
/// before an fsync that began after its line was written.
@Suite struct JournalGroupCommitTests {
    /// A file system that tells `record` of its appends and its fsyncs, each fsync named by what it synced (the
    /// journal or its directory).
    static func recording(_ record: @escaping @Sendable (String) -> Void) -> FileSystem {
        var fileSystem = FileSystem.posix
        fileSystem.calls.append = { descriptor, bytes throws(Errno) in
            record("append")
            return try FileSystem.posix.append(descriptor, bytes)
        }
        fileSystem.calls.sync = { descriptor throws(Errno) in
            let kind = (try? FileSystem.posix.status(descriptor))?.kind
            record(kind == .directory ? "sync directory" : "sync journal")
            try FileSystem.posix.sync(descriptor)
        }
        return fileSystem
    }

    /// Each write-ahead record is fsynced before `append` returns; an intention and a completion are
    /// written and not waited for, and still apply to their entry.
    @Test func onlyRecordsThatAnnounceAStepWaitForTheirFsync() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let calls = Locked<[String]>([])
        let journal = try CopyJournal(
            directory: directory.path, fileSystem: Self.recording { call in calls.withLock { $0.append(call) } })
        try journal.append(JournalRecord.committing(name: "first", size: 1, digest: CopyJournalTests.digest))
        calls.withLock { $0.removeAll() }
        try journal.append(CopyJournalTests.intent("a"))
        try journal.append(.committing(name: "a", size: 100, digest: CopyJournalTests.digest))
        try journal.append(.completed(name: "a", size: 100, digest: CopyJournalTests.digest))
        // The intention's line is made durable by the commitment's fsync.
        #expect(calls.withLock { $0 } == ["append", "append", "sync journal", "append"])
        #expect(journal.entry(named: "a")?.status == .completed(size: 100, digest: CopyJournalTests.digest))
    }

    /// A new journal's name is made durable (its directory synced) once, after the first record a later step
    /// relies on is synced and before that record's `append` returns; creating the journal syncs nothing (a tree copy
    /// opens one in every directory it makes, and the thread that walks the tree waited for each directory's sync).
    /// A journal that was there when it was opened never syncs its directory.
    @Test(arguments: [false, true]) func aJournalsNameIsMadeDurableOnceBeforeTheFirstStepThatReliesOnIt(existed: Bool)
        throws
    {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        if existed {
            // Left by an earlier run: an intention, written and not synced.
            try write(
                CopyJournalTests.content(of: [CopyJournalTests.intent("old")]), to: directory.file(CopyJournal.fileName)
            )
        }
        let calls = Locked<[String]>([])
        let journal = try CopyJournal(
            directory: directory.path, fileSystem: Self.recording { call in calls.withLock { $0.append(call) } })
        #expect(calls.withLock { $0 } == [])
        try journal.append(CopyJournalTests.intent("a"))
        try journal.append(.committing(name: "a", size: 100, digest: CopyJournalTests.digest))
        try journal.append(.committing(name: "b", size: 100, digest: CopyJournalTests.digest))
        let first =
            existed ? ["append", "append", "sync journal"] : ["append", "append", "sync journal", "sync directory"]
        #expect(calls.withLock { $0 } == first + ["append", "sync journal"])
    }

    /// A settled journal is removed; its directory is synced only with `syncing` (without, the caller syncs the
    /// file system later), and only once the journal's name was durable: before, nothing a later run would read
    /// from it was, and its removal needs no sync either.
    @Test(arguments: [false, true], [false, true]) func aSettledJournalIsRemovedSyncedOnlyWhenItsNameWasDurable(
        syncing: Bool, nameWasDurable: Bool
    ) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let calls = Locked<[String]>([])
        let journal = try CopyJournal(
            directory: directory.path, fileSystem: Self.recording { call in calls.withLock { $0.append(call) } })
        try journal.append(CopyJournalTests.intent("a"))
        if nameWasDurable {
            try journal.append(.committing(name: "a", size: 100, digest: CopyJournalTests.digest))
        }
        try journal.append(.completed(name: "a", size: 100, digest: CopyJournalTests.digest))
        #expect(journal.nameIsDurable == nameWasDurable)
        calls.withLock { $0.removeAll() }
        #expect(try journal.removeIfSettled(syncing: syncing))
        #expect(!exists(directory.file(CopyJournal.fileName)))
        #expect(calls.withLock { $0 } == (syncing && nameWasDurable ? ["sync directory"] : []))
    }

    /// While the first append's fsync is held, four more appends write their lines and wait; when it is
    /// released, one more fsync makes all four durable: two fsyncs for five records, each journaled.
    @Test func appendsWaitingForAnFsyncShareTheNextOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let held = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let syncs = Locked(0)
        let written = DispatchSemaphore(value: 0)
        let counting = Locked(false)
        var fileSystem = FileSystem.posix
        fileSystem.calls.sync = { descriptor throws(Errno) in
            // The journal's own fsyncs: its directory is synced once too, by the first `append` that syncs.
            let journalSync = (try? FileSystem.posix.status(descriptor))?.kind == .regularFile
            let first =
                counting.withLock { $0 } && journalSync
                ? syncs.withLock { count in
                    count += 1
                    return count == 1
                } : false
            if first {
                entered.signal()
                held.wait()
            }
            try FileSystem.posix.sync(descriptor)
        }
        fileSystem.calls.append = { descriptor, bytes throws(Errno) in
            let count = try FileSystem.posix.append(descriptor, bytes)
            written.signal()
            return count
        }
        let journal = try CopyJournal(directory: directory.path, fileSystem: fileSystem)
        let names = ["first", "b", "c", "d", "e"]
        // The intentions, which are written and not waited for, give each name its entry.
        for name in names { try journal.append(CopyJournalTests.intent(name)) }
        for _ in names { written.wait() }
        counting.withLock { $0 = true }
        let appended = DispatchGroup()
        func appendOnAThread(_ name: String) {
            appended.enter()
            Thread {
                try? journal.append(.committing(name: name, size: 100, digest: CopyJournalTests.digest))
                appended.leave()
            }.start()
        }
        appendOnAThread("first")
        entered.wait()
        for name in ["b", "c", "d", "e"] { appendOnAThread(name) }
        // Until every line is written (bounded, so code that holds the journal during its fsync fails
        // instead of hanging), then until every writer took its ticket.
        let deadline = DispatchTime.now() + .seconds(20)
        let allWritten = (0..<5).allSatisfy { _ in written.wait(timeout: deadline) == .success }
        if allWritten { journal.waitForWriters() }
        held.signal()
        appended.wait()
        #expect(syncs.withLock { $0 } == 2)
        let committing = JournalEntry.Status.committing(size: 100, digest: CopyJournalTests.digest)
        #expect(journal.entries.mapValues(\.status) == Dictionary(uniqueKeysWithValues: names.map { ($0, committing) }))
    }
}
