import Commands
import Foundation
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

    /// Each seed, and each kept crash reproducer (named the same way once its crash was fixed), ends in the
    /// answer its name gives.
    @Test(
        "each seed is accepted (ok-…) or cleanly rejected (bad-…) as its name says, and both kinds are seeded",
        arguments: FuzzTarget.allCases)
    func seedsEndAsNamed(_ target: FuzzTarget) throws {
        let seeds = Self.inputs("Corpus", target) + Self.inputs("Crashes", target)
        var answers: [String: Bool] = [:]
        /// `Corpus/FuzzReplay/ok-load.txt`.
        func key(_ file: URL) -> String { String(file.path.dropFirst(Self.fuzzFolder.path.count + 1)) }
        for seed in seeds { answers[key(seed)] = target.run(try Self.bytes(seed)) }
        let named = Dictionary(
            uniqueKeysWithValues: seeds.map { (key($0), $0.lastPathComponent.hasPrefix("ok-")) })
        #expect(answers == named)
        #expect(Set(named.values) == [true, false])
    }
}
