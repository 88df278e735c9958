import FileTransfer
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Before a copy the soft limit on open files is raised toward the hard limit (at most
/// ``OpenFileLimit/ceiling``), never lowered; raising again changes nothing.
@Suite struct OpenFileLimitTests {
    private func limits() throws -> rlimit {
        var limit = rlimit()
        try #require(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        return limit
    }

    @Test func theSoftLimitRisesTowardTheHardLimitAndNeverFalls() throws {
        let before = try limits()
        let expected = max(before.rlim_cur, min(before.rlim_max, rlim_t(OpenFileLimit.ceiling)))
        #expect(OpenFileLimit.raise() == Int(clamping: expected))
        let after = try limits()
        #expect([after.rlim_cur, after.rlim_max] == [expected, before.rlim_max])
        #expect(OpenFileLimit.raise() == Int(clamping: expected))
    }
}
