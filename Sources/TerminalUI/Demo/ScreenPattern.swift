/// The regular expression of a demo's `expect /…/`, matched in time linear in the screen's length: the pattern
/// compiles to a Thompson NFA that is simulated on all its states at once (Pike's VM without captures), so no
/// pattern can backtrack catastrophically — `(.*.*.*.*=)+X` costs what `a` costs, times the pattern's size.
///
/// The syntax is the common core of regular expressions, as Swift's `Regex` reads it: literal characters;
/// `.` (any character but a line feed); classes `[abc]`, `[^a-z]`; `\d \D \w \W \s \S`; `\b \B`; `\n \t \r`;
/// a backslash before punctuation for the punctuation itself; groups `( )` and `(?: )`; alternation `|`;
/// `* + ?` and `{n}`, `{n,}`, `{n,m}` (each optionally lazy with `?`, which finding a match ignores);
/// `^` and `$` at the start and end of the screen. Anything else (back-references, look-around, flags) is a
/// syntax error naming it, never a silently different meaning. Characters are Swift `Character`s.
public struct ScreenPattern: Hashable, Sendable {
    /// Why a pattern cannot be compiled: the message and the 1-based character position.
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        /// 1-based position in the pattern, in characters.
        public var position: Int
        /// What is wrong.
        public var message: String

        /// An error at `position`.
        public init(position: Int, _ message: String) {
            self.position = position
            self.message = message
        }

        /// `at 3: … `.
        public var description: String { "at character \(position): \(message)" }
    }

    /// The longest pattern accepted, in characters.
    public static let maximumLength = 1000
    /// The most NFA states a pattern may compile to (repetition counts multiply a pattern's size).
    public static let maximumStates = 10_000
    /// The largest count in `{n,m}`.
    static let maximumRepeat = 1000
    /// The deepest nesting of groups.
    static let maximumNesting = 64

    /// The pattern as written.
    public let source: String
    private let program: [Instruction]

    /// Compiles `source`, or throws naming the first thing that is not in the supported syntax or exceeds a
    /// bound.
    public init(_ source: String) throws(SyntaxError) {
        let characters = Array(source)
        guard characters.count <= Self.maximumLength else {
            throw SyntaxError(position: Self.maximumLength + 1, "longer than \(Self.maximumLength) characters")
        }
        var parser = PatternParser(characters)
        let node = try parser.parseAll()
        var compiler = PatternCompiler()
        try compiler.emit(node)
        compiler.program.append(.match)
        self.source = source
        self.program = compiler.program
    }

    /// Whether the pattern matches somewhere in `text`.
    public func matches(_ text: String) -> Bool {
        let characters = Array(text)
        var current = ThreadList(capacity: program.count)
        var next = ThreadList(capacity: program.count)
        var stack: [Int] = []
        for position in 0...characters.count {
            // Unanchored search: a new thread starts at every position.
            if add(0, at: position, in: characters, to: &current, stack: &stack) { return true }
            guard position < characters.count else { break }
            let character = characters[position]
            next.clear()
            for pc in current.members {
                let advances: Bool
                switch program[pc] {
                case .character(let expected): advances = character == expected
                case .any: advances = character != "\n"
                case .set(let set): advances = set.contains(character)
                case .split, .jump, .assert, .match: advances = false
                }
                if advances, add(pc + 1, at: position + 1, in: characters, to: &next, stack: &stack) { return true }
            }
            swap(&current, &next)
        }
        return false
    }

    /// Adds `pc` and every state reachable from it without consuming a character; true once `match` is
    /// reached. An explicit stack, so no pattern can exhaust the call stack.
    private func add(
        _ start: Int, at position: Int, in text: [Character], to list: inout ThreadList, stack: inout [Int]
    ) -> Bool {
        stack.removeAll(keepingCapacity: true)
        stack.append(start)
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            switch program[pc] {
            case .match: return true
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assert(let assertion):
                if assertion.holds(at: position, in: text) { stack.append(pc + 1) }
            case .character, .any, .set: break
            }
        }
        return false
    }
}

/// One NFA state.
private enum Instruction: Hashable, Sendable {
    case character(Character)
    case any
    case set(CharacterSet)
    /// Continue at both targets.
    case split(Int, Int)
    case jump(Int)
    case assert(Assertion)
    case match
}

/// A zero-width condition.
private enum Assertion: Hashable, Sendable {
    case start, end, wordBoundary, notWordBoundary

    func holds(at position: Int, in text: [Character]) -> Bool {
        switch self {
        case .start: return position == 0
        case .end: return position == text.count
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && CharacterClass.word.contains(text[position - 1])
            let after = position < text.count && CharacterClass.word.contains(text[position])
            return (before != after) == (self == .wordBoundary)
        }
    }
}

/// The named classes behind `\d`, `\w`, `\s`.
private enum CharacterClass: Hashable, Sendable {
    case digit, word, space

    func contains(_ character: Character) -> Bool {
        switch self {
        case .digit: character.unicodeScalars.first?.properties.generalCategory == .decimalNumber
        case .word: character.isLetter || character.isNumber || character == "_"
        case .space: character.isWhitespace
        }
    }
}

/// A bracketed class (or a named one written alone), possibly negated.
private struct CharacterSet: Hashable, Sendable {
    enum Item: Hashable, Sendable {
        case character(Character)
        case range(Character, Character)
        case named(CharacterClass, negated: Bool)
    }

    var items: [Item]
    var negated: Bool

    func contains(_ character: Character) -> Bool {
        let found = items.contains { item in
            switch item {
            case .character(let member): character == member
            case .range(let low, let high): low <= character && character <= high
            case .named(let named, let negated): named.contains(character) != negated
            }
        }
        return found != negated
    }
}

/// The pattern's syntax tree.
private indirect enum PatternNode {
    case empty
    case character(Character)
    case any
    case set(CharacterSet)
    case assert(Assertion)
    case sequence([PatternNode])
    case alternatives([PatternNode])
    case repeated(PatternNode, minimum: Int, maximum: Int?)
}

/// Recursive descent over the pattern, depth bounded by ``ScreenPattern/maximumNesting``.
private struct PatternParser {
    private let characters: [Character]
    private var index = 0
    private var depth = 0

    init(_ characters: [Character]) { self.characters = characters }

    mutating func parseAll() throws(ScreenPattern.SyntaxError) -> PatternNode {
        let node = try parseAlternatives()
        if index < characters.count {
            throw error("unmatched ')'")
        }
        return node
    }

    private mutating func parseAlternatives() throws(ScreenPattern.SyntaxError) -> PatternNode {
        var alternatives = [try parseSequence()]
        while peek() == "|" {
            index += 1
            alternatives.append(try parseSequence())
        }
        return alternatives.count == 1 ? alternatives[0] : .alternatives(alternatives)
    }

    private mutating func parseSequence() throws(ScreenPattern.SyntaxError) -> PatternNode {
        var items: [PatternNode] = []
        while let next = peek(), next != "|", next != ")" {
            let atom = try parseAtom()
            items.append(try parseQuantifiers(atom))
        }
        return items.isEmpty ? .empty : items.count == 1 ? items[0] : .sequence(items)
    }

    private mutating func parseQuantifiers(_ atom: PatternNode) throws(ScreenPattern.SyntaxError) -> PatternNode {
        var node = atom
        var quantified = false
        while let next = peek() {
            let start = index
            let bounds: (Int, Int?)
            switch next {
            case "*": bounds = (0, nil)
            case "+": bounds = (1, nil)
            case "?": bounds = (0, 1)
            case "{":
                guard let counted = try parseCount() else { return node }
                bounds = counted
            default: return node
            }
            if next != "{" { index += 1 }
            if case .assert = atom { throw error("nothing to repeat", at: start) }
            if peek() == "?" {
                index += 1  // lazy: the same language, so the same answer to "is there a match"
            } else if peek() == "+" {
                throw error("possessive quantifiers are not supported")
            }
            if quantified { throw error("a quantifier cannot follow another; use a group", at: start) }
            quantified = true
            node = .repeated(node, minimum: bounds.0, maximum: bounds.1)
        }
        return node
    }

    /// `{n}`, `{n,}` or `{n,m}` at the current position; nil (consuming nothing) when `{` starts none of them,
    /// in which case it is a literal brace.
    private mutating func parseCount() throws(ScreenPattern.SyntaxError) -> (Int, Int?)? {
        let start = index
        index += 1
        guard let minimum = readNumber() else {
            index = start
            return nil
        }
        var maximum: Int? = minimum
        if peek() == "," {
            index += 1
            maximum = readNumber()
        }
        guard peek() == "}" else {
            index = start
            return nil
        }
        index += 1
        if let maximum, maximum < minimum {
            throw error("{\(minimum),\(maximum)}: the maximum is below the minimum", at: start)
        }
        guard minimum <= ScreenPattern.maximumRepeat, (maximum ?? 0) <= ScreenPattern.maximumRepeat else {
            throw error("a repetition count is above \(ScreenPattern.maximumRepeat)", at: start)
        }
        return (minimum, maximum)
    }

    private mutating func readNumber() -> Int? {
        let start = index
        while let next = peek(), next.isASCII, next.isWholeNumber, index - start < 9 { index += 1 }
        guard index > start else { return nil }
        return Int(String(characters[start..<index]))
    }

    private mutating func parseAtom() throws(ScreenPattern.SyntaxError) -> PatternNode {
        let start = index
        let character = characters[index]
        index += 1
        switch character {
        case ".": return .any
        case "^": return .assert(.start)
        case "$": return .assert(.end)
        case "(": return try parseGroup(openedAt: start)
        case "[": return .set(try parseSet(openedAt: start))
        case "\\": return try parseEscape(inSet: false).node
        case "*", "+", "?": throw error("nothing to repeat", at: start)
        default: return .character(character)
        }
    }

    private mutating func parseGroup(openedAt start: Int) throws(ScreenPattern.SyntaxError) -> PatternNode {
        if peek() == "?" {
            guard index + 1 < characters.count, characters[index + 1] == ":" else {
                throw error("'(?' constructs other than '(?:' (look-around, flags, names) are not supported")
            }
            index += 2
        }
        depth += 1
        defer { depth -= 1 }
        guard depth <= ScreenPattern.maximumNesting else {
            throw error("groups are nested more than \(ScreenPattern.maximumNesting) deep", at: start)
        }
        let inner = try parseAlternatives()
        guard peek() == ")" else { throw error("'(' is not closed", at: start) }
        index += 1
        return inner
    }

    private mutating func parseSet(openedAt start: Int) throws(ScreenPattern.SyntaxError) -> CharacterSet {
        var set = CharacterSet(items: [], negated: false)
        if peek() == "^" {
            set.negated = true
            index += 1
        }
        while true {
            guard let next = peek() else { throw error("'[' is not closed", at: start) }
            if next == "]" {
                guard !set.items.isEmpty else { throw error("an empty class '[]' matches nothing", at: start) }
                index += 1
                return set
            }
            if next == "[" { throw error("nested classes and set operations are not supported") }
            let low = try parseSetMember()
            guard peek() == "-", index + 1 < characters.count, characters[index + 1] != "]" else {
                set.items.append(low)
                continue
            }
            let dash = index
            index += 1
            let high = try parseSetMember()
            guard case .character(let lowCharacter) = low, case .character(let highCharacter) = high else {
                throw error("a range needs a character at each end", at: dash)
            }
            guard lowCharacter <= highCharacter else { throw error("the range is reversed", at: dash) }
            set.items.append(.range(lowCharacter, highCharacter))
        }
    }

    private mutating func parseSetMember() throws(ScreenPattern.SyntaxError) -> CharacterSet.Item {
        let character = characters[index]
        index += 1
        guard character == "\\" else { return .character(character) }
        switch try parseEscape(inSet: true) {
        case (.character(let literal), _): return .character(literal)
        case (_, let item?): return item
        default: throw error("this escape is not supported inside a class", at: index - 2)
        }
    }

    /// The escape after a backslash: the node it stands for and, for a class escape, the class item.
    private mutating func parseEscape(
        inSet: Bool
    ) throws(ScreenPattern.SyntaxError) -> (node: PatternNode, item: CharacterSet.Item?) {
        guard let character = peek() else { throw error("the pattern ends with a lone backslash") }
        index += 1
        func named(_ named: CharacterClass, negated: Bool) -> (PatternNode, CharacterSet.Item?) {
            let item = CharacterSet.Item.named(named, negated: negated)
            return (.set(CharacterSet(items: [item], negated: false)), item)
        }
        switch character {
        case "d": return named(.digit, negated: false)
        case "D": return named(.digit, negated: true)
        case "w": return named(.word, negated: false)
        case "W": return named(.word, negated: true)
        case "s": return named(.space, negated: false)
        case "S": return named(.space, negated: true)
        case "n": return (.character("\n"), nil)
        case "t": return (.character("\t"), nil)
        case "r": return (.character("\r"), nil)
        case "b" where !inSet: return (.assert(.wordBoundary), nil)
        case "B" where !inSet: return (.assert(.notWordBoundary), nil)
        default:
            guard character.isASCII, character.isPunctuation || character.isSymbol || character == " " else {
                throw error("the escape '\\\(character)' is not supported", at: index - 1)
            }
            return (.character(character), nil)
        }
    }

    private func peek() -> Character? { index < characters.count ? characters[index] : nil }

    private func error(_ message: String, at position: Int? = nil) -> ScreenPattern.SyntaxError {
        ScreenPattern.SyntaxError(position: (position ?? index) + 1, message)
    }
}

/// Turns the syntax tree into NFA states, refusing programs above ``ScreenPattern/maximumStates``.
private struct PatternCompiler {
    var program: [Instruction] = []

    mutating func emit(_ node: PatternNode) throws(ScreenPattern.SyntaxError) {
        switch node {
        case .empty: break
        case .character(let character): try append(.character(character))
        case .any: try append(.any)
        case .set(let set): try append(.set(set))
        case .assert(let assertion): try append(.assert(assertion))
        case .sequence(let items):
            for item in items { try emit(item) }
        case .alternatives(let alternatives):
            // split L1, next; L1: first; jump end; next: split L2, … ; last
            var jumps: [Int] = []
            for (offset, alternative) in alternatives.enumerated() {
                if offset < alternatives.count - 1 {
                    let split = program.count
                    try append(.split(split + 1, 0))
                    try emit(alternative)
                    jumps.append(program.count)
                    try append(.jump(0))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(alternative)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repeated(let body, let minimum, let maximum):
            for _ in 0..<minimum { try emit(body) }
            if let maximum {
                // Each optional copy: split into the body or past every remaining copy.
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(program.count)
                    try append(.split(program.count + 1, 0))
                    try emit(body)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let loop = program.count
                try append(.split(loop + 1, 0))
                try emit(body)
                try append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
    }

    private mutating func append(_ instruction: Instruction) throws(ScreenPattern.SyntaxError) {
        guard program.count < ScreenPattern.maximumStates else {
            throw ScreenPattern.SyntaxError(
                position: 1,
                "compiles to more than \(ScreenPattern.maximumStates) states; use smaller repetition counts")
        }
        program.append(instruction)
    }
}

/// A set of NFA states with insertion order, cleared in O(1) (sparse-set technique).
private struct ThreadList {
    private var dense: [Int]
    private var sparse: [Int]
    private(set) var count = 0

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    var members: ArraySlice<Int> { dense[..<count] }

    /// Inserts `state`; false when it was already in.
    mutating func insert(_ state: Int) -> Bool {
        let slot = sparse[state]
        if slot < count && dense[slot] == state { return false }
        sparse[state] = count
        dense[count] = state
        count += 1
        return true
    }

    mutating func clear() { count = 0 }
}
