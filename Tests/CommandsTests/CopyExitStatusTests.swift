import FileTransfer
import Testing

@testable import Commands

/// The end of a copy on standard error: each failed file with its reason, then the counts.
@Suite struct CopyExitStatusTests {
    /// A failed file's name is quoted at most 200 characters long, as its reason is (before: a file 20 levels
    /// deep in a tree of 250-byte names printed a line of about 5,000 characters before its bounded reason).
    @Test func aLongNameIsQuotedWithinTheBound() {
        let io = MemoryIO()
        let name = String(repeating: "d/", count: 1_000) + "leaf"
        let status = CopyExitStatus.report(
            failures: [(name: name, message: "cannot read it: File name too long"), (name: "b", message: "gone\n")],
            unfinished: 1, of: 3, io: io.io)
        #expect(status == 1)
        #expect(
            io.error == """
                statetui: \(String(name.prefix(200)))…(1804 more): cannot read it: File name too long
                statetui: b: gone\\n
                statetui: 2 of 3 transfers failed
                statetui: 1 of 3 transfers did not complete (not started, paused or cancelled); the same command copies them

                """)
    }
}
