import Support
import TerminalUI

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes the Mermaid files the Graph screen asks for and reports where, or why not.
package struct GraphRuntime: Sendable {
    /// The directory files go to: the current directory in the dashboard.
    package let directory: String

    /// A runtime writing into `directory` (the process's current directory by default).
    package init(directory: String = FileManager.default.currentDirectoryPath) {
        self.directory = directory
    }

    /// Performs one effect.
    package func run(_ effect: GraphScreenEffect, send: Send<GraphScreenAction>) {
        switch effect {
        case .writeFile(let name, let text):
            let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            // Through the directory's descriptor, never following a link someone left under that name.
            do throws(OutputFileError) {
                try OutputFile.write(text, to: path)
                send(.exported(.written(path: path)))
            } catch {
                send(.exported(.failed(path: path, reason: error.reason)))
            }
        }
    }
}
