/// Where the seed of a model check comes from: `STATE_MACHINE_SEED`, then the caller, then chance.
public enum ModelSeed {
    /// The environment variable that overrides every seed, so a failure printed in CI replays locally.
    public static let environmentVariable = "STATE_MACHINE_SEED"

    /// The seed a check runs with: the environment's `STATE_MACHINE_SEED` when set, else `explicit`,
    /// else a fresh random seed.
    ///
    /// The variable accepts a decimal or `0x`-prefixed hexadecimal unsigned 64-bit integer; anything
    /// else stops the process with a message naming the variable and the value, since silently
    /// ignoring it would make a replay quietly test something else.
    public static func resolve(explicit: UInt64?, environment: [String: String]) -> UInt64 {
        if let text = environment[environmentVariable] {
            guard let value = parse(text) else {
                fatalError(
                    "\(environmentVariable)=\"\(text)\" is not an unsigned 64-bit integer (decimal or 0x-hexadecimal)")
            }
            return value
        }
        return explicit ?? UInt64.random(in: .min ... .max)
    }

    /// Parses a decimal or `0x`-prefixed hexadecimal `UInt64`, ignoring surrounding spaces.
    public static func parse(_ text: String) -> UInt64? {
        let trimmed = text.trimmingSpaces()
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
            return UInt64(trimmed.dropFirst(2), radix: 16)
        }
        return UInt64(trimmed)
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    fileprivate func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
