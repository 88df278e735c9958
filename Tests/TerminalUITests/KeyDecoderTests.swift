import CNCurses
import TerminalUI
import Testing

@Suite struct KeyDecoderTests {
    @Test(arguments: [
        (WideInput.character(0x61), Key.character("a")),
        (.character(0x20), .character(" ")),
        (.character(0x3F), .character("?")),
        (.character(0x65E5), .character("日")),
        (.character(0x1F600), .character("😀")),
        (.character(0x03), .control("c")),
        (.character(0x1A), .control("z")),
        (.character(0x01), .control("a")),
        (.character(0x09), .tab),
        (.character(0x0A), .enter),
        (.character(0x0D), .enter),
        (.character(0x08), .backspace),
        (.character(0x7F), .backspace),
        (.character(0x1B), .escape),
        (.keyCode(KEY_UP), .up),
        (.keyCode(KEY_DOWN), .down),
        (.keyCode(KEY_LEFT), .left),
        (.keyCode(KEY_RIGHT), .right),
        (.keyCode(KEY_HOME), .home),
        (.keyCode(KEY_END), .end),
        (.keyCode(KEY_PPAGE), .pageUp),
        (.keyCode(KEY_NPAGE), .pageDown),
        (.keyCode(KEY_IC), .insert),
        (.keyCode(KEY_DC), .delete),
        (.keyCode(KEY_BTAB), .backTab),
        (.keyCode(KEY_ENTER), .enter),
        (.keyCode(KEY_BACKSPACE), .backspace),
        (.keyCode(KEY_RESIZE), .resize),
        (.keyCode(cn_key_f(1)), .function(1)),
        (.keyCode(cn_key_f(12)), .function(12)),
    ])
    func decodes(input: WideInput, key: Key) {
        #expect(KeyDecoder.decode(input) == key)
    }

    @Test(arguments: [
        WideInput.character(0), .character(0x1C), .character(0x1F), .character(0x85), .character(0xD800),
        .keyCode(KEY_MOUSE), .keyCode(cn_key_f(0)), .keyCode(0x7FFF),
    ])
    func ignoresMeaninglessInput(input: WideInput) {
        #expect(KeyDecoder.decode(input) == nil)
    }

    @Test func decodesGetWchStatuses() {
        #expect(KeyDecoder.decode(status: OK, value: 0x71) == .character("q"))
        #expect(KeyDecoder.decode(status: KEY_CODE_YES, value: UInt32(KEY_BTAB)) == .backTab)
        #expect(KeyDecoder.decode(status: ERR, value: 0x71) == nil)
    }

    @Test(arguments: [
        Key.character("q"), .character(" "), .control("c"), .up, .down, .left, .right, .home, .end, .pageUp,
        .pageDown, .insert, .delete, .tab, .backTab, .escape, .enter, .backspace, .function(5), .resize,
    ])
    func namesRoundTrip(key: Key) {
        #expect(Key(name: key.description) == key)
    }

    @Test(arguments: ["", "ctrl-", "ctrl-1", "f0", "f99", "bogus"])
    func unknownNamesAreRejected(name: String) {
        #expect(Key(name: name) == nil)
    }
}
