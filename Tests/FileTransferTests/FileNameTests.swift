import Testing

@testable import FileTransfer

/// Names are bytes (issue 23): every byte string the file system may hold survives the trip through the
/// `String` the copier carries it in, and is shown escaped.
@Suite struct FileNameTests {
    /// Byte strings, valid UTF-8 or not, including the UTF-8 of the very scalars that stand for bytes.
    static let names: [[UInt8]] = [
        Array("plain.txt".utf8),
        Array("bad".utf8) + [0xFF] + Array("name".utf8),
        [0xC3, 0xA9],  // é, precomposed
        [0x65, 0xCC, 0x81],  // é, decomposed: a different name
        [0xE9],  // é in Latin-1
        [0xE2, 0x82],  // a truncated sequence
        [0xC0, 0xAF],  // an overlong "/"
        [0xED, 0xA0, 0x80],  // a UTF-16 surrogate
        [0xF4, 0x8F, 0xBC, 0x80],  // U+10FF00, the first scalar that stands for a byte
        [0xF4, 0x8F, 0xBF, 0xBF, 0x41],  // U+10FFFF then "A"
        [0xF4, 0x80, 0x80, 0x80],  // U+100000: begins with 0xF4, as the escapes do, yet stands for itself
        [0x80, 0x80, 0xFE, 0xFF, 0x01, 0x7F],
        Array(0x01...0xFF),
    ]

    @Test(arguments: names)
    func everyByteStringTurnsBackIntoItsBytes(bytes: [UInt8]) {
        let name = FileName.string(bytes)
        #expect(FileName.bytes(name) == bytes)
        #expect(
            FileName.withCString(name) { pointer in Array(UnsafeBufferPointer(start: pointer, count: bytes.count + 1)) }
                == bytes.map { CChar(bitPattern: $0) } + [0])
    }

    /// Names sort in the order of their strings' UTF-8 bytes, prefixes first, whatever their storage (short names
    /// are held inline, long ones in a buffer): every pair of these names, both ways, as the generic comparison of
    /// the two views orders them.
    @Test func namesSortInTheOrderOfTheirBytes() {
        let strings =
            Self.names.map(FileName.string) + [
                "", "f", "f1", "f10", "f100", "f2", "F", "a long name that is held in a buffer of its own",
                "a long name that is held in a buffer of its own, longer", "été", "e\u{301}", "\u{10FFFF}",
            ]
        let pairs = strings.flatMap { left in strings.map { (left, $0) } }
        #expect(
            pairs.map { FileName.precedes($0, $1) } == pairs.map { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(
            ["f2", "f10", "", "f1", "F", "f"].sorted(by: FileName.precedes) == ["", "F", "f", "f1", "f10", "f2"])
        // Sorted by their first 8 bytes first: names that share them, or end within them, still sort by all of them.
        let sharing = ["abcdefgh", "abcdefghij", "abcdefghi", "abcdefg", "abcdefgha", "abcdefgh\u{301}", "ab"]
        let all = strings + sharing + strings.map { "prefix-" + $0 }
        #expect(FileName.sortedInByteOrder(all) == all.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// Two different byte strings never become the same string's bytes (the mapping is one to one).
    @Test func differentBytesStayDifferentNames() {
        let bytes = Self.names.map { FileName.bytes(FileName.string($0)) }
        #expect(Set(bytes).count == Self.names.count)
    }

    /// A name holds an escape only where a scalar stands for a byte: other scalars whose UTF-8 begins with 0xF4,
    /// as the escapes' does, are text.
    @Test(
        arguments: [
            ([0x61], false), ([0xF4, 0x80, 0x80, 0x80], false), ([0xF4, 0x8F, 0xBB, 0xBF], false),
            ([0xF4, 0x8F, 0xBC, 0x80], true), (Array("bad".utf8) + [0xFF], true), ([0xC3, 0xA9, 0xF4], true),
        ] as [([UInt8], Bool)])
    func anEscapeIsFoundOnlyWhereAScalarStandsForAByte(bytes: [UInt8], escaped: Bool) {
        #expect(FileName.containsEscape(FileName.string(bytes)) == escaped)
    }

    /// Valid UTF-8 is carried as the text it is; a byte that is not UTF-8 is shown as `\xFF`.
    @Test(
        arguments: [
            (Array("plain.txt".utf8), "plain.txt", "plain.txt"),
            ([0xC3, 0xA9], "é", "é"),
            (Array("bad".utf8) + [0xFF] + Array("name".utf8), nil, "bad\\xFFname"),
            ([0xE2, 0x82, 0x0A], nil, "\\xE2\\x82\\n"),
            ([0xF4, 0x8F, 0xBC, 0x80], nil, "\\xF4\\x8F\\xBC\\x80"),
        ] as [([UInt8], String?, String)])
    func namesAreShownEscaped(bytes: [UInt8], text: String?, shown: String) {
        let name = FileName.string(bytes)
        if let text { #expect(name == text) }
        #expect(DisplayText.escaped(name) == shown)
    }
}

/// A copy's default name is the source's last path component, found in its bytes as the system finds it.
@Suite struct CopyRequestNameTests {
    @Test(
        arguments: [
            ("a/b", "b"), ("a/b/", "b"), ("//a//", "a"), ("b", "b"), ("/", ""), ("", ""), ("./x", "x"),
            // A separator before a combining mark: split into characters, `/\u{301}` was one character, the path
            // had no separator there, and the name held a slash.
            ("src/\u{301}x", "\u{301}x"), ("dir/e\u{301}", "e\u{301}"), ("a/\u{301}/", "\u{301}"),
            ("photos/2024/été.jpg", "été.jpg"), (String(repeating: "d/", count: 100) + "f", "f"),
        ])
    func isTheLastComponent(source: String, name: String) {
        #expect(CopyRequest.name(of: source) == name)
        #expect(CopyRequest(id: "", source: source, destinationDirectory: "/d").name == name)
    }
}
