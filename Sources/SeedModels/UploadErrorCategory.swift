/// What kind of failure ended an upload (seed 001: "retain a useful error category"): it decides what a
/// retry does.
public enum UploadErrorCategory: Hashable, Sendable, CaseIterable {
    /// The connection dropped or timed out: a retry continues from what the server had confirmed.
    case network
    /// The server failed while receiving (a 5xx): a retry starts the upload over.
    case server
    /// The server refused the upload (a 4xx: too large, not allowed): a retry would be refused the same
    /// way, so retry does not apply.
    case rejected

    /// Whether a retry can get past this failure.
    public var isRetryable: Bool {
        switch self {
        case .network, .server: true
        case .rejected: false
        }
    }
}

extension UploadErrorCategory: CanonicalCases {
    /// What an error calls a category.
    public static let canonicalTypeName = "upload error category"

    /// The categories, written as bare names: `network`, `server`, `rejected`.
    public static let canonicalCases: [CanonicalCase<UploadErrorCategory>] = allCases.map { category in
        CanonicalCase(category.name, category)
    }

    /// The category as canonical text's syntax tree: its bare name.
    public var canonicalValue: CanonicalValue { .name(name) }

    private var name: String {
        switch self {
        case .network: "network"
        case .server: "server"
        case .rejected: "rejected"
        }
    }
}
