import Foundation
import Support
import Testing

@testable import FileTransfer

/// What a copy keeps of its source besides the bytes, like `cp -a`, and that no copy is ever wider than
/// its source while it is written.
@Suite struct MetadataTests {
    /// The permission bits and modification time of the file at `path`.
    static func modeAndTime(of path: String) throws -> (permissions: UInt32, modified: Int64) {
        var raw = stat()
        guard stat(path, &raw) == 0 else { throw Errno.current }
        return (UInt32(raw.st_mode) & 0o7777, Int64(raw.st_mtim.tv_sec))
    }

    /// A private key stays 0600 and a script keeps its x, whatever the umask; the partial is 0600 while
    /// it is written (it is given the source's mode only just before the rename); the modification time
    /// is the source's.
    @Test(arguments: [0o600, 0o755, 0o640, 0o400, 0o700] as [UInt32])
    func theCopyHasTheSourcesModeAndTimeAndIsPrivateWhileWritten(permissions: UInt32) async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        #expect(chmod(fixture.source, mode_t(permissions)) == 0)
        try setModificationTime(of: fixture.source, seconds: 1_234_567_890)
        let partialModes = Locked<Set<UInt32>>([])
        let partialPath = fixture.partialPath
        let outcome = try await fixture.job().run { progress in
            if progress.bytesWritten > 0, progress.bytesWritten < progress.totalBytes,
                let mode = try? Self.modeAndTime(of: partialPath).permissions
            {
                partialModes.withLock { _ = $0.insert(mode) }
            }
        }
        #expect(outcome == .completed(fixture.committed))
        #expect(partialModes.withLock { $0 } == [0o600])
        let copied = try Self.modeAndTime(of: fixture.finalPath)
        #expect(copied.permissions == permissions && copied.modified == 1_234_567_890)
    }

    /// Any time a file may have is kept exactly, as `cp -a` keeps it: half a second before 1970 (before: set as
    /// an invalid `timespec`, the copy failed with "Invalid argument") and the year 2400 (before: the count of
    /// nanoseconds overflowed and the process trapped); a rerun then skips the copy by its time.
    @Test(
        arguments: [
            FileTime(seconds: -1, nanoseconds: 500_000_000),
            FileTime(seconds: 13_569_465_600, nanoseconds: 750_000_000),
            FileTime(seconds: 1_234_567_890, nanoseconds: 123_456_789),
        ])
    func timesBeforeTheEpochAndBeyond2262AreKept(time: FileTime) async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        var times = [time.systemTime, time.systemTime]
        #expect(utimensat(AT_FDCWD, fixture.source, &times, 0) == 0)
        let outcome = try await fixture.job().run()
        #expect(outcome == .completed(fixture.committed))
        var copied = stat()
        #expect(stat(fixture.finalPath, &copied) == 0)
        #expect([FileTime(copied.st_mtim), FileTime(copied.st_atim)] == [time, time])
        let rerun = try await fixture.job().run()
        #expect(
            rerun == .alreadyComplete(CommittedFile(path: fixture.finalPath, size: fixture.committed.size, digest: nil))
        )
    }

    /// A time in nanoseconds is split into whole seconds, rounded down, and the nanoseconds after them; the
    /// journal's count of nanoseconds saturates beyond the years 1678 and 2262 instead of overflowing.
    @Test(
        arguments: [
            (-500_000_000, -1, 500_000_000), (-1_000_000_000, -1, 0), (1_999_999_999, 1, 999_999_999), (0, 0, 0),
        ] as [(Int64, Int64, Int64)])
    func aTimeKeepsItsNanosecondsAfterWholeSeconds(nanoseconds: Int64, seconds: Int64, after: Int64) {
        let time = FileTime(nanoseconds: nanoseconds)
        #expect([time.seconds, time.nanoseconds, time.clampedNanoseconds] == [seconds, after, nanoseconds])
        #expect(
            [
                FileTime(seconds: 13_569_465_600).clampedNanoseconds,
                FileTime(seconds: -13_569_465_600).clampedNanoseconds,
            ]
                == [.max, .min])
    }

    /// Not as root, a copy belongs to its copier: setuid stays only when the copier owns the source, setgid
    /// only when the copy got the source's group, as `cp -a` does (before: a copy of root's setuid program
    /// made by user 1000 was setuid 1000, so whoever ran it ran as 1000); sticky and the rest always stay.
    @Test(
        arguments: [
            (1000, true, 0o6755, 0o6755), (1000, false, 0o6755, 0o4755), (2000, true, 0o6755, 0o2755),
            (2000, false, 0o6755, 0o0755), (2000, false, 0o1777, 0o1777), (2000, false, 0o0640, 0o0640),
        ] as [(UInt32, Bool, UInt32, UInt32)])
    func setuidAndSetgidStayOnlyWithTheirOwnerAndGroup(user: UInt32, groupKept: Bool, source: UInt32, kept: UInt32) {
        var status = FileStatus(
            size: 1, modifiedNanoseconds: 1, isDirectory: false, isRegularFile: true, permissions: source)
        status.user = 1000
        status.group = 100
        #expect(status.permissionsKept(byUser: user, groupKept: groupKept) == kept)
    }

    /// A destination without extended attributes: the file is still copied and verified, and the job
    /// warns instead of failing.
    @Test func extendedAttributesTheDestinationRefusesAreAWarningNotAFailure() async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        let warnings = Locked<[CopyWarning]>([])
        var options = fixture.options()
        options.fileSystem.calls.copyExtendedAttributes = { _, _ throws(Errno) in throw Errno(rawValue: ENOTSUP) }
        options.warn = { warning in warnings.withLock { $0.append(warning) } }
        let outcome = try await fixture.job(options: options).run()
        #expect(outcome == .completed(fixture.committed))
        #expect(
            warnings.withLock { $0 }
                == [.extendedAttributesNotCopied(path: fixture.finalPath, reason: Errno(rawValue: ENOTSUP))])
    }

    /// A copy's extended attributes are set after its owner and before its mode and times, as `cp -a` sets
    /// them: a change of owner clears file capabilities (`security.capability`), so a copy of a program with
    /// one kept it only when they came after (before: the attributes came first, and a root copy of `ping`
    /// lost `cap_net_raw`).
    @Test func extendedAttributesComeAfterTheOwnerAndBeforeTheModeAndTimes() async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        let calls = Locked<[String]>([])
        var options = fixture.options()
        let posix = options.fileSystem
        // The partial seen with a group other than the source's, so that the copy gives it the source's.
        options.fileSystem.calls.status = try Self.status(ofPartialsOf: fixture, inGroupOtherThanSource: true)
        options.fileSystem.calls.setOwner = { descriptor, user, group throws(Errno) in
            calls.withLock { $0.append("owner") }
            try posix.setOwner(descriptor, user, group)
        }
        options.fileSystem.calls.copyExtendedAttributes = { source, destination throws(Errno) in
            calls.withLock { $0.append("attributes") }
            try posix.copyExtendedAttributes(source, destination)
        }
        options.fileSystem.calls.setPermissions = { descriptor, permissions throws(Errno) in
            calls.withLock { $0.append("mode") }
            try posix.setPermissions(descriptor, permissions)
        }
        options.fileSystem.calls.setTimes = { descriptor, accessed, modified throws(Errno) in
            calls.withLock { $0.append("times") }
            try posix.setTimes(descriptor, accessed, modified)
        }
        let outcome = try await fixture.job(options: options).run()
        #expect(outcome == .completed(fixture.committed))
        #expect(calls.withLock { $0 } == ["owner", "attributes", "mode", "times"])
    }

    /// A partial created with the source's owner and group (the user's own file, or root's as root) is not given
    /// them again, as `cp -a` does not: a system call a file of a tree fewer. One created with another group is
    /// (before: every copy called `fchown`, whatever the partial's owner and group were).
    @Test(arguments: [(otherGroup: false, owned: 0), (otherGroup: true, owned: 1)])
    func anOwnerAndGroupThePartialHasAreNotGivenAgain(otherGroup: Bool, owned: Int) async throws {
        let fixture = try CopyJobTests.Fixture()
        defer { fixture.directory.remove() }
        let owners = Locked<[UInt32]>([])
        var options = fixture.options()
        let posix = options.fileSystem
        options.fileSystem.calls.status = try Self.status(ofPartialsOf: fixture, inGroupOtherThanSource: otherGroup)
        options.fileSystem.calls.setOwner = { descriptor, user, group throws(Errno) in
            owners.withLock { $0.append(group) }
            try posix.setOwner(descriptor, user, group)
        }
        let outcome = try await fixture.job(options: options).run()
        let sourceGroup = try FileSystem.posix.statusOfPath(fixture.source).group
        #expect(outcome == .completed(fixture.committed))
        #expect(owners.withLock { $0 } == Array(repeating: sourceGroup, count: owned))
        #expect(try FileSystem.posix.statusOfPath(fixture.finalPath).group == sourceGroup)
    }

    /// The file system's `fstat`, but for any file other than the fixture's source, a partial of its copy, which
    /// it reports in a group other than the source's when `inGroupOtherThanSource` (as a partial made in a
    /// directory whose set-group-ID bit gives new files its group).
    private static func status(ofPartialsOf fixture: CopyJobTests.Fixture, inGroupOtherThanSource: Bool) throws
        -> @Sendable (Int32) throws(Errno) -> FileStatus
    {
        let posix = fixture.options().fileSystem
        let source = try FileSystem.posix.statusOfPath(fixture.source)
        return { descriptor throws(Errno) in
            var status = try posix.status(descriptor)
            if inGroupOtherThanSource, status.identity != source.identity { status.group = source.group &+ 1 }
            return status
        }
    }
}
