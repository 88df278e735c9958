#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Text put on the system clipboard through the terminal: OSC 52 (`ESC ] 52 ; c ; BASE64 BEL`), which xterm,
/// kitty, WezTerm, iTerm2, Windows Terminal and tmux (with `set-clipboard on`) honour, also over ssh. The text
/// travels base64-encoded, so no byte of it can reach the terminal as a control sequence. Each copy has a number,
/// so the same text copied twice is written twice, and a frame drawn again does not copy again.
public struct ClipboardCopy: Hashable, Sendable {
    /// What is copied.
    public var text: String
    /// Which copy this is: a terminal writes a copy whose number it has not written yet.
    public var number: Int

    /// The copy numbered `number` of `text`.
    public init(text: String, number: Int) {
        self.text = text
        self.number = number
    }

    /// The most text copied (100 KB, well under what terminals accept); longer text is cut at a character.
    public static let maximumLength = 100_000

    /// The escape sequence that puts ``text`` (cut to ``maximumLength`` bytes of UTF-8) on the clipboard.
    public var sequence: String {
        var bytes = Array(text.utf8.prefix(Self.maximumLength))
        // Never end inside a character: drop continuation bytes and the lead byte they belong to.
        if bytes.count < text.utf8.count {
            while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
            if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
        }
        return "\u{1B}]52;c;" + Data(bytes).base64EncodedString() + "\u{07}"
    }
}
