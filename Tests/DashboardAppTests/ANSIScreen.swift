import TerminalUI

/// A tiny terminal for replaying recordings: cursor position (`ESC [ row ; col H`), clear screen (`ESC [ 2 J`),
/// SGR (`ESC [ … m`, ignored: only text is compared) and printable characters, wide ones taking two cells.
/// Exactly the subset `ANSIFrame` writes; anything else is an error, so the test notices new sequences.
struct ANSIScreen {
    struct UnsupportedSequence: Error, CustomStringConvertible {
        var sequence: String
        var description: String { "unsupported escape sequence ESC\(sequence)" }
    }

    let width: Int
    let height: Int
    private(set) var cells: [[String]]
    private var row = 0
    private var column = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = Array(repeating: Array(repeating: " ", count: width), count: height)
    }

    mutating func feed(_ data: String) throws {
        var characters = data[...]
        while let character = characters.popFirst() {
            guard character == "\u{1B}" else {
                put(character)
                continue
            }
            guard characters.popFirst() == "[" else {
                throw UnsupportedSequence(sequence: String(characters.prefix(4)))
            }
            var parameters = ""
            var final: Character?
            while let next = characters.popFirst() {
                if next.isLetter {
                    final = next
                    break
                }
                parameters.append(next)
            }
            switch final {
            case "H":
                let numbers = parameters.split(separator: ";").compactMap { Int($0) }
                row = (numbers.first ?? 1) - 1
                column = (numbers.count > 1 ? numbers[1] : 1) - 1
            case "J" where parameters == "2":
                cells = Array(repeating: Array(repeating: " ", count: width), count: height)
            case "m":
                break
            default:
                throw UnsupportedSequence(sequence: "[" + parameters + (final.map { String($0) } ?? ""))
            }
        }
    }

    private mutating func put(_ character: Character) {
        let cellWidth = DisplayWidth.of(character)
        guard cellWidth > 0, row >= 0, row < height, column >= 0, column < width else { return }
        cells[row][column] = String(character)
        if cellWidth == 2, column + 1 < width { cells[row][column + 1] = "" }
        column += cellWidth
    }

    /// The screen as plain text, like `Canvas.text`: rows with trailing spaces removed, each ended by a newline.
    var text: String {
        cells.map { line in
            var text = line.joined()
            while text.last == " " { text.removeLast() }
            return text + "\n"
        }.joined()
    }
}
