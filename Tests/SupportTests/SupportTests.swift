import Dispatch
import Support
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct LockedTests {
    /// Eight threads take turns on one array: no update is lost, and under `make test-tsan` the
    /// acquire/release hand-over is what keeps ThreadSanitizer from reporting the turns as a race. With
    /// `halfTrying`, half the threads take the lock with `withLockIfAvailable` (trying again while it is busy)
    /// and half with `withLock`, so both ways in hand over to each other.
    @Test(arguments: [false, true])
    func everyThreadsUpdatesSurvive(halfTrying: Bool) {
        let rounds = 2_000
        let shared = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<rounds {
                let value = thread * rounds + round
                if halfTrying && thread.isMultiple(of: 2) {
                    while shared.withLockIfAvailable({ $0.append(value) }) == nil {}
                } else {
                    shared.withLock { $0.append(value) }
                }
            }
        }
        let values = shared.withLock { $0 }
        #expect(values.sorted() == Array(0..<(8 * rounds)))
    }

    /// A throwing body's error comes out of `withLock` with its own type, and the value stays as the body
    /// left it.
    @Test func aThrownErrorKeepsItsTypeAndTheChangesMadeBeforeIt() {
        struct Refused: Error, Equatable {}
        let counter = Locked(0)
        #expect(throws: Refused()) {
            try counter.withLock { (value: inout Int) throws(Refused) in
                value += 1
                throw Refused()
            }
        }
        #expect(counter.withLock { $0 } == 1)
    }

    /// While another thread holds the lock, `withLockIfAvailable` runs nothing and returns `nil` at once;
    /// once the lock is free it runs its body like `withLock`.
    @Test func aTryWhileAnotherThreadHoldsTheLockRunsNothing() {
        let shared = Locked(0)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = DispatchGroup()
        DispatchQueue.global().async(group: holder) {
            shared.withLock { value in
                value = 1
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        let whileHeld = shared.withLockIfAvailable { value -> Int in
            value += 10
            return value
        }
        release.signal()
        holder.wait()
        let onceFree = shared.withLockIfAvailable { value -> Int in
            value += 10
            return value
        }
        #expect([whileHeld, onceFree] == [nil, 11])
    }
}

/// A lock whose waiters sleep: more threads than cores take it, no update is lost and each thread's updates stay
/// in its order (and `make test-tsan` sees the hand-overs); a throwing body's error keeps its type and the value
/// keeps the changes made before the throw.
@Suite struct SleepingLockTests {
    @Test func threadsBeyondTheCoresLoseNoUpdate() {
        let threads = 16
        let rounds = 1_000
        let shared = SleepingLock<[[Int]]>(Array(repeating: [], count: threads))
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<rounds { shared.withLock { $0[thread].append(round) } }
        }
        #expect(shared.withLock { $0 } == Array(repeating: Array(0..<rounds), count: threads))
    }

    @Test func aThrownErrorKeepsItsTypeAndTheChangesMadeBeforeIt() {
        struct Refused: Error, Equatable { var after: Int }
        let counter = SleepingLock(41)
        #expect(throws: Refused(after: 42)) {
            try counter.withLock { (value: inout Int) throws(Refused) in
                value += 1
                throw Refused(after: value)
            }
        }
        #expect(counter.withLock { $0 } == 42)
    }
}

@Suite struct SplitMix64Tests {
    /// The published SplitMix64 sequence for seed 0, so a seed printed on one machine replays on another.
    @Test func seedZeroGivesTheReferenceSequence() {
        var generator = SplitMix64(seed: 0)
        let first = (0..<3).map { _ in generator.next() }
        #expect(first == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }

    /// Numbers below a small bound stay below it and reach every value in it.
    @Test(arguments: [1, 2, 7])
    func boundedNumbersCoverExactlyTheRangeBelowTheBound(bound: Int) {
        var generator = SplitMix64(seed: 42)
        let drawn = Set((0..<500).map { _ in generator.next(below: bound) })
        #expect(drawn == Set(0..<bound))
    }
}

/// Byte counts from outside never overflow: a sparse file of 7 EiB on tmpfs made the copy trap computing its
/// percent, and the totals of two such files trapped summing them.
@Suite struct ByteCountTests {
    @Test(
        arguments: [
            (0, 100, 0), (99, 100, 99), (100, 100, 100), (150, 100, 100), (5, 0, 100), (-1, 10, 0),
            (Int64.max - 1, Int64.max, 99), (Int64.max / 2, Int64.max, 49), (7 << 60, 7 << 60, 100),
        ] as [(Int64, Int64, Int)])
    func aPercentIsWholeAndBounded(part: Int64, whole: Int64, percent: Int) {
        #expect(part.wholePercent(of: whole) == percent)
    }

    @Test(
        arguments: [
            (1000, 31, 310), (199, 50, 99), (Int64.max, 100, Int64.max), (Int64.max, 50, Int64.max / 2),
            (1000, 150, 1000), (1000, -5, 0),
        ] as [(Int64, Int, Int64)])
    func aPortionIsRoundedDownWithoutOverflow(count: Int64, percent: Int, portion: Int64) {
        #expect(count.portion(percent: percent) == portion)
    }

    @Test func aSumSaturatesAtTheBounds() {
        #expect(
            [
                Int64.max.addingClamped(1), Int64.min.addingClamped(-1), Int64(7 << 60).addingClamped(7 << 60),
                Int64(2).addingClamped(3),
            ]
                == [.max, .min, .max, 5])
    }
}

/// A scan of a string's UTF-8 bytes finds a byte wherever it is (first, last, beyond non-ASCII text) and in strings
/// kept inline or on the heap, in a substring's copy as in the whole, and never in the empty string.
@Suite struct StringBytesTests {
    @Test(
        arguments: [
            ("", false), ("/", true), ("name", false), ("a/b", true), ("trailing/", true), ("/leading", true),
            ("été/🙂", true), ("été🙂", false), (String(repeating: "long", count: 40) + "/", true),
            (String(repeating: "long", count: 40), false), (String("xx/yy".dropFirst(2)), true),
            (String("xx/yy".dropFirst(3)), false),
        ])
    func findsTheByteWhereverItIs(text: String, hasSlash: Bool) {
        #expect(text.containsUTF8Byte(where: { $0 == UInt8(ascii: "/") }) == hasSlash)
        // The same answer as a walk over the bytes one by one.
        #expect(text.containsUTF8Byte(where: { $0 >= 0x80 }) == text.utf8.contains(where: { $0 >= 0x80 }))
    }
}

/// Appending a string's UTF-8 to a byte array appends exactly its bytes after what was there, whether the string
/// is empty, inline, on the heap, non-ASCII, or a substring's copy.
@Suite struct AppendUTF8Tests {
    @Test(
        arguments: [
            "", "a", "name.txt", "été/🙂", String(repeating: "long", count: 40), String("xx/yy".dropFirst(2)),
            "\u{0}nul",
        ])
    func appendsExactlyTheBytes(text: String) {
        var bytes: [UInt8] = [0x7B]
        bytes.appendUTF8(of: text)
        #expect(bytes == [0x7B] + Array(text.utf8))
    }

    /// Room is `count` zero bytes after what the array held, however many blocks of zeros it takes.
    @Test(arguments: [0, 1, 63, 64, 65, 200])
    func appendsRoomOfZeros(count: Int) {
        var bytes: [UInt8] = [0x3A, 0x3B]
        bytes.appendRoom(count)
        #expect(bytes == [0x3A, 0x3B] + [UInt8](repeating: 0, count: count))
    }

    /// A number's digits are `String(value)`'s, whatever its sign and length, after what the array held.
    @Test(arguments: [0, 7, -1, 10, -10, 99, 100, 1_733_500_000_123_456_789, Int64.max, Int64.min, Int64.min + 1])
    func appendsTheDecimalDigitsStringWouldSpell(value: Int64) {
        var bytes: [UInt8] = [0x3A]
        bytes.appendDecimal(value)
        #expect(bytes == [0x3A] + Array(String(value).utf8))
    }
}

/// A quoted literal escapes the quote, the backslash and the line controls itself, asks its dialect about every
/// other scalar outside printable ASCII, and writes printable ASCII as it is without asking.
@Suite struct QuotedLiteralTests {
    @Test(
        arguments: [
            ("", #""""#),
            ("plain text ~!", #""plain text ~!""#),
            (#"say "hi"\now"#, #""say \"hi\"\\now""#),
            ("two\nlines\r\t", #""two\nlines\r\t""#),
            ("bell\u{7}", #""bell<7>""#),
            ("café", #""caf<E9>""#),
            ("a\u{7F}b", #""a<7F>b""#),
        ])
    func escapesWhatTheDialectSaysAndKeepsPlainASCII(text: String, quoted: String) {
        let dialect: (Unicode.Scalar) -> String? = { "<" + String($0.value, radix: 16, uppercase: true) + ">" }
        #expect(QuotedLiteral.quoted(text, escape: dialect) == quoted)
    }

    /// A dialect that escapes nothing leaves every other scalar as it is.
    @Test func aDialectThatEscapesNothingKeepsEveryOtherScalar() {
        #expect(QuotedLiteral.quoted("é🙂\u{7}x", escape: { _ in nil }) == "\"é🙂\u{7}x\"")
    }
}

/// A write to a reader that takes nothing gives up when told to (a copy piped to a pager nobody scrolls must
/// still stop on SIGTERM), writing first whatever the reader still takes; a reader that takes everything gets
/// every byte.
@Suite struct WriteAllTests {
    /// A pipe whose buffer is full: its read end, its write end (blocking) and the bytes in it.
    static func fullPipe() throws -> (read: Int32, write: Int32, filled: Int) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let flags = fcntl(ends[1], F_GETFL)
        _ = fcntl(ends[1], F_SETFL, flags | O_NONBLOCK)
        let chunk = [UInt8](repeating: 7, count: 4096)
        var filled = 0
        while case let count = chunk.withUnsafeBytes({ write(ends[1], $0.baseAddress, $0.count) }), count > 0 {
            filled += count
        }
        _ = fcntl(ends[1], F_SETFL, flags)
        return (ends[0], ends[1], filled)
    }

    @Test func aWriteNobodyReadsGivesUpWhenTold() throws {
        let pipe = try Self.fullPipe()
        defer { [pipe.read, pipe.write].forEach { _ = close($0) } }
        let asked = Locked(0)
        let code = [UInt8](repeating: 1, count: 1000).withUnsafeBytes { bytes in
            writeAll(
                pipe.write, bytes,
                giveUp: {
                    asked.withLock {
                        $0 += 1
                        return $0 > 3
                    }
                })
        }
        #expect([code, Int32(asked.withLock { $0 })] == [EINTR, 4])
    }

    @Test func aReaderThatTakesEverythingGetsEveryByte() throws {
        let pipe = try Self.fullPipe()
        defer { _ = close(pipe.read) }
        let reader = pipe.read
        let drained = DispatchSemaphore(value: 0)
        let total = Locked(0)
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                total.withLock { $0 += count }
            }
            drained.signal()
        }
        let code = [UInt8](repeating: 1, count: 100_000).withUnsafeBytes { bytes in
            writeAll(pipe.write, bytes, giveUp: { false })
        }
        _ = close(pipe.write)
        drained.wait()
        #expect(code == nil)
        #expect(total.withLock { $0 } == pipe.filled + 100_000)
    }
}

@Suite struct OutputFileTests {
    /// A `--trace` or `--record` file may be a FIFO its user reads: once that reader quits, a write fails with
    /// an error that says so, and raises no SIGPIPE (which ended the whole program, terminal and all).
    @Test func aWriteToAFIFOWhoseReaderQuitFailsAndRaisesNothing() throws {
        try Self.inNewFolder(name: "trace") { path in
            try #require(mkfifo(path, 0o600) == 0)
            let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            try #require(reader >= 0)
            let file = try OutputFile(creating: path)
            try file.write("frame 1\n")
            _ = close(reader)
            #expect(throws: OutputFileError(path: path, reason: "the pipe's reader has gone")) {
                try file.write("frame 2\n")
            }
            try file.close()
            var pending = sigset_t()
            sigpending(&pending)
            #expect(sigismember(&pending, SIGPIPE) == 0)
        }
    }

    /// A file whose name begins with a combining mark is created in its directory under that name: the path is
    /// split at its last `/` byte (in characters, the `/` before the mark was not found).
    @Test func aNameBeginningWithACombiningMarkIsCreatedInItsDirectory() throws {
        try Self.inNewFolder(name: "\u{301}trace") { path in
            let file = try OutputFile(creating: path)
            try file.write("x")
            try file.close()
            var status = stat()
            #expect(stat(path, &status) == 0 && status.st_size == 1)
        }
    }

    /// Runs `body` with the path `name` in a new empty folder under /tmp, then removes both.
    static func inNewFolder(name: String, _ body: (String) throws -> Void) throws {
        var template = Array("/tmp/output-file-XXXXXX".utf8CString)
        let folder = try #require(mkdtemp(&template).map { String(cString: $0) })
        let path = folder + "/" + name
        defer {
            unlink(path)
            rmdir(folder)
        }
        try body(path)
    }
}

@Suite struct DetachedThreadTests {
    /// A task may not block its thread, a thread of its own may (CI hung for 90 minutes: a test's task blocked in
    /// a copy's stop and another in a demo, both waiting for work that needed the pool's two threads they held).
    @Test func aTaskMayNotBlockItsThreadAndAThreadOfItsOwnMay() async {
        let fromThread = await DetachedThread.value(name: "may block") { (DetachedThread.mayBlock, 42) }
        #expect([DetachedThread.mayBlock, fromThread.0] == [false, true])
        #expect(fromThread.1 == 42)
    }

    /// What the thread's work throws reaches the task that waited, with its own type.
    @Test func anErrorThrownOnTheThreadReachesTheTaskWithItsType() async {
        struct Refused: Error, Equatable { var code: Int32 }
        await #expect(throws: Refused(code: 7)) {
            try await DetachedThread.value(name: "refuses") { () throws(Refused) -> Int in throw Refused(code: 7) }
        }
    }
}
