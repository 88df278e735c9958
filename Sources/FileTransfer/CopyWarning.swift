/// Something a copy could not keep although the file itself was copied.
public enum CopyWarning: Hashable, Sendable, CustomStringConvertible {
    /// The extended attributes of `path` were not copied (`ENOTSUP` where the destination has none).
    case extendedAttributesNotCopied(path: String, reason: Errno)

    /// One line naming the file and what was not kept.
    public var description: String {
        switch self {
        case .extendedAttributesNotCopied(let path, let reason):
            "\(DisplayText.escaped(path, limit: DisplayText.quoteLimit)): extended attributes not copied: \(reason)"
        }
    }
}
