import Foundation

/// Prints `json` on one line with its keys sorted: the line of a group that `make bench` collects.
func printJSONLine(_ json: [String: Any]) {
    if let data = try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]),
        let line = String(data: data, encoding: .utf8)
    {
        print(line)
    }
}
