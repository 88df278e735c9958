import Commands
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct StandardStreamTests {
    @Test func aFullDeviceIsAWriteFailureWithItsErrno() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(StandardStream(descriptor: descriptor).write("text".utf8) == .failed(errno: ENOSPC))
    }

    @Test func aPipeWithoutAReaderIsAClosedPipe() throws {
        // The process must not die of SIGPIPE for the error to be seen, as under `trap '' PIPE`.
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        #expect(StandardStream(descriptor: ends[1]).write("text".utf8) == .closedPipe)
    }
}
