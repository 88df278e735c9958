import Foundation
import StateTUI
import Testing

/// The fuzz targets' seed corpora and kept crash reproducers (Tests/Fuzz), run through the same entry the
/// libFuzzer executables call, in the ordinary `swift test`: every input ends in an answer, never a crash.
@Suite struct FuzzCorpusTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The files of `Tests/Fuzz/<folder>/<target>`, sorted by name; none when the folder does not exist.
    static func inputs(_ folder: String, _ target: FuzzTarget) -> [URL] {
        let directory = fuzzFolder.appendingPathComponent(folder).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    static func bytes(_ file: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: file))
    }

    @Test("every fuzz executable in Tests/Fuzz has an entry, and every entry an executable")
    func executablesMatchEntries() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.fuzzFolder.path).filter {
            FileManager.default.fileExists(atPath: Self.fuzzFolder.appendingPathComponent("\($0)/main.swift").path)
        }
        #expect(Set(folders) == Set(FuzzTarget.allCases.map(\.rawValue)))
    }

    @Test(
        "each seed is accepted (ok-…) or cleanly rejected (bad-…) as its name says, and both kinds are seeded",
        arguments: FuzzTarget.allCases)
    func seedsEndAsNamed(_ target: FuzzTarget) throws {
        let seeds = Self.inputs("Corpus", target)
        var answers: [String: Bool] = [:]
        for seed in seeds { answers[seed.lastPathComponent] = target.run(try Self.bytes(seed)) }
        let named = Dictionary(
            uniqueKeysWithValues: seeds.map { ($0.lastPathComponent, $0.lastPathComponent.hasPrefix("ok-")) })
        #expect(answers == named)
        #expect(Set(named.values) == [true, false])
    }
}
