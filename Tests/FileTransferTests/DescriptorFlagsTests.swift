import Testing

@testable import FileTransfer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened without following links and without blocking (so a FIFO planted under its name cannot hang
/// the copy) is left blocking once found to be a regular file, with the status flags it was opened with.
@Suite struct DescriptorFlagsTests {
    @Test(arguments: [O_RDONLY, O_RDWR | O_APPEND])
    func anExistingFileIsLeftBlockingWithItsFlags(flags: Int32) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try write([1, 2, 3], to: directory.file("a"))
        let destination = try DestinationDirectory(path: directory.path)
        let descriptor = try #require(try destination.openExisting("a", flags: flags, writable: flags != O_RDONLY))
        defer { close(descriptor) }
        let status = fcntl(descriptor, F_GETFL)
        #expect(status & (O_NONBLOCK | O_APPEND | O_ACCMODE) == flags)
    }
}
