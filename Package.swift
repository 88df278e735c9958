// swift-tools-version:6.2
import CompilerPluginSupport
import Foundation
import PackageDescription

/// The toolchain's `lib/swift/host` directory, which holds the SwiftSyntax modules and libraries the
/// compiler itself uses. No outside package can be fetched here, so the `@StateMachine` macro is built
/// against these. Found from the toolchain that evaluates this manifest, never from a fixed path:
/// first from the `PackageDescription` library this manifest is running on (`/proc/self/maps`), then
/// from `swiftc` on `PATH`.
func toolchainHostLibraries() -> String? {
    let fileManager = FileManager.default
    func hostDirectory(libSwift: URL) -> String? {
        let host = libSwift.appendingPathComponent("host")
        let marker = host.appendingPathComponent("SwiftSyntax.swiftmodule").path
        return fileManager.fileExists(atPath: marker) ? host.path : nil
    }
    // <toolchain>/usr/lib/swift/pm/ManifestAPI/libPackageDescription.so → <toolchain>/usr/lib/swift/host
    if let maps = FileHandle(forReadingAtPath: "/proc/self/maps") {
        let text = String(decoding: maps.readDataToEndOfFile(), as: UTF8.self)
        for line in text.split(separator: "\n") {
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first,
                path.hasSuffix("/libPackageDescription.so")
            else { continue }
            let libSwift = URL(fileURLWithPath: String(path)).resolvingSymlinksInPath()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            if let host = hostDirectory(libSwift: libSwift) { return host }
        }
    }
    // <toolchain>/usr/bin/swiftc → <toolchain>/usr/lib/swift/host
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":") {
        let swiftc = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
        guard fileManager.isExecutableFile(atPath: swiftc.path) else { continue }
        let libSwift = swiftc.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib").appendingPathComponent("swift")
        if let host = hostDirectory(libSwift: libSwift) { return host }
    }
    return nil
}

/// Compiler and linker flags that make the toolchain's SwiftSyntax importable and loadable. When no
/// host directory exists, a define makes the plugin fail with an `#error` that names the cause.
let hostLibraries = toolchainHostLibraries()
let syntaxSwiftSettings: [SwiftSetting] =
    hostLibraries.map { [.unsafeFlags(["-I", $0])] }
    ?? [.define("STATEMACHINE_MACROS_NO_HOST_SYNTAX")]
let syntaxLinkerSettings: [LinkerSetting] =
    (hostLibraries.map {
        [LinkerSetting.unsafeFlags(["-L", $0, "-Xlinker", "-rpath", "-Xlinker", $0])]
    } ?? [])
    + [
        "SwiftSyntax", "SwiftDiagnostics", "SwiftParser", "SwiftBasicFormat", "SwiftSyntaxBuilder",
        "SwiftSyntaxMacros", "SwiftSyntaxMacroExpansion", "SwiftCompilerPluginMessageHandling",
    ].map { .linkedLibrary($0) }

/// How the release `statetui` binary is linked on Linux, so that the dynamic loader maps and relocates less
/// at every exec (the idle dashboard is 1.9 MB smaller resident):
/// - by lld, with packed relative relocations (SHT_RELR, glibc 2.36+): gold, the toolchain's default, writes
///   1 MB of RELA entries that the loader reads and applies; RELR packs the same relocations into 9 KB, and
///   lld's separate read-only segment keeps constant data out of the executable pages (0.8 MB);
/// - with the C++ runtime that the static Swift runtime needs taken from libstdc++.a rather than
///   libstdc++.so.6: `Sources/statetui/Linker` holds a linker script named `libstdc++.so` that finds the
///   archive, and is searched before the compiler's folders (1.1 MB).
/// The debug build and the tests link as the toolchain does by default.
let executableLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            "-L",
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "Sources/statetui/Linker"
            ).path,
        ], .when(platforms: [.linux], configuration: .release))
]

let package = Package(
    name: "statetui",
    // What `Mutex` and `Atomic` (Synchronization) need; nothing in the libraries is Linux-only.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "StateMachineKit", targets: ["StateMachineKit"]),
        .library(name: "StateMachineTesting", targets: ["StateMachineTesting"]),
        .library(name: "StateMachineDiagrams", targets: ["StateMachineDiagrams"]),
        .library(name: "StateMachineMacros", targets: ["StateMachineMacros"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "TerminalUITesting", targets: ["TerminalUITesting"]),
        .library(name: "SeedModels", targets: ["SeedModels"]),
        .executable(name: "statetui", targets: ["statetui"]),
        .library(name: "FileTransfer", targets: ["FileTransfer"]),
        .library(name: "StateMachineInspector", targets: ["StateMachineInspector"]),
    ],
    targets: [
        // The few things several targets share (one lock, one seeded generator), at `package` access.
        .target(name: "Support"),
        .testTarget(name: "SupportTests", dependencies: ["Support"]),
        .target(name: "StateMachineKit", dependencies: ["Support"]),
        // A state graph drawn as boxes and arrows in text: the layout engine, apart from the graph and its
        // exploration, which stay in StateMachineKit.
        .target(name: "StateMachineDiagrams", dependencies: ["StateMachineKit"]),
        .testTarget(name: "StateMachineDiagramsTests", dependencies: ["StateMachineDiagrams", "StateMachineKit"]),
        .target(name: "StateMachineTesting", dependencies: ["StateMachineKit", "StateMachineDiagrams", "Support"]),
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "StateMachineKit", "StateMachineTesting", "StateMachineDiagrams", "TerminalUI", "FileTransfer",
                "SeedModels", "MachineDrivers", "DashboardApp", "Commands", "StateMachineInspector", "Support",
                "CMalloc",
            ]),
        .testTarget(name: "StateMachineKitTests", dependencies: ["StateMachineKit", "StateMachineTesting", "Support"]),
        // The in-process inspector server and its client (issue 15): sockets live here, never in the engine.
        .target(name: "StateMachineInspector", dependencies: ["StateMachineKit", "Support"]),
        .testTarget(name: "StateMachineInspectorTests", dependencies: ["StateMachineInspector", "StateMachineKit"]),
        .testTarget(
            name: "StateMachineTestingTests",
            dependencies: ["StateMachineTesting", "StateMachineKit", "StateMachineDiagrams", "Support"]),
        .macro(
            name: "StateMachineMacrosPlugin",
            swiftSettings: syntaxSwiftSettings,
            linkerSettings: syntaxLinkerSettings
        ),
        .target(name: "StateMachineMacros", dependencies: ["StateMachineKit", "StateMachineMacrosPlugin"]),
        .testTarget(
            name: "StateMachineMacrosPluginTests",
            dependencies: ["StateMachineMacrosPlugin"],
            swiftSettings: syntaxSwiftSettings,
            linkerSettings: syntaxLinkerSettings
        ),
        .testTarget(
            name: "StateMachineMacrosTests", dependencies: ["StateMachineMacros", "StateMachineKit", "Support"]),
        // A seed model rewritten with @StateMachine. Its own target, so SeedModels stays free of the
        // macro's unsafe flags and other packages can keep depending on it.
        .target(name: "MacroModels", dependencies: ["SeedModels", "StateMachineMacros"]),
        .testTarget(
            name: "MacroModelsTests",
            dependencies: ["MacroModels", "SeedModels", "StateMachineKit", "Commands"]),
        .testTarget(
            name: "DocSnippetsTests",
            dependencies: [
                "StateMachineKit", "StateMachineTesting", "StateMachineDiagrams", "StateMachineInspector",
                "StateMachineMacros", "Support",
            ]),
        .systemLibrary(
            name: "CNCurses",
            path: "Sources/CNCurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        .target(name: "TerminalUI", dependencies: ["CNCurses", "Support"]),
        .target(name: "TerminalUITesting", dependencies: ["TerminalUI"]),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "TerminalUITesting", "CNCurses", "Support"],
            exclude: ["__Snapshots__"]
        ),
        .target(name: "SeedModels", dependencies: ["StateMachineKit", "StateMachineDiagrams", "Support"]),
        .testTarget(
            name: "SeedModelsTests",
            dependencies: ["SeedModels", "StateMachineKit", "StateMachineDiagrams", "StateMachineTesting", "Support"]),
        // Adapters that drive the models' machines with real work (copies of files) or simulated work.
        .target(name: "MachineDrivers", dependencies: ["SeedModels", "FileTransfer", "StateMachineKit", "Support"]),
        .testTarget(
            name: "MachineDriversTests",
            dependencies: ["MachineDrivers", "SeedModels", "StateMachineKit", "FileTransfer", "Support"]),
        // The dashboard: its shell (App/), its features (Screens/) and the demos it bundles.
        .target(
            name: "DashboardApp",
            dependencies: [
                "MachineDrivers", "SeedModels", "TerminalUI", "StateMachineKit", "StateMachineDiagrams",
                "FileTransfer", "Support",
            ]),
        // `statetui inspect`'s own app: its screens over another program's machines, read through the inspector.
        .target(
            name: "InspectApp",
            dependencies: [
                "DashboardApp", "SeedModels", "TerminalUI", "StateMachineKit", "StateMachineDiagrams",
                "StateMachineInspector", "Support",
            ]),
        // The command line: parsing, every command, the fuzz entry points.
        .target(
            name: "Commands",
            dependencies: [
                "CMalloc", "DashboardApp", "InspectApp", "MachineDrivers", "SeedModels", "TerminalUI",
                "StateMachineKit",
                "StateMachineDiagrams", "FileTransfer", "StateMachineInspector", "Support",
            ]),
        .executableTarget(
            name: "statetui", dependencies: ["Commands"], exclude: ["Linker"], linkerSettings: executableLinking),
        // Depends on the executable so `swift test` builds the binary the end-to-end replay tests run.
        .testTarget(
            name: "CommandsTests",
            dependencies: [
                "Commands", "DashboardApp", "MachineDrivers", "SeedModels", "StateMachineKit", "StateMachineDiagrams",
                "TerminalUI", "TerminalUITesting", "statetui", "FileTransfer", "StateMachineInspector", "Support",
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "DashboardAppTests",
            dependencies: [
                "DashboardApp", "MachineDrivers", "SeedModels", "StateMachineKit", "StateMachineDiagrams",
                "TerminalUI", "TerminalUITesting", "FileTransfer", "Support",
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "InspectAppTests",
            dependencies: [
                "InspectApp", "DashboardApp", "SeedModels", "StateMachineKit", "StateMachineDiagrams",
                "StateMachineInspector", "TerminalUI", "TerminalUITesting",
            ],
            exclude: ["__Snapshots__"]
        ),
        // SHA-256 from the system's OpenSSL 3 libcrypto: the headers (Debian: libssl-dev) only. Nothing links
        // it; FileTransfer opens it at the first hash, so a program that never hashes does not load it.
        .systemLibrary(
            name: "CLibCrypto",
            path: "Sources/CLibCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "FileTransfer", dependencies: ["CLibCrypto", "StateMachineKit", "Support"]),
        // glibc's malloc_trim, for the headless copy's bounded memory (nothing on other C libraries).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .testTarget(
            name: "FileTransferTests",
            dependencies: ["FileTransfer", "StateMachineKit", "StateMachineTesting", "Support"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets, declared only when STATETUI_FUZZ=1 (`make fuzz`), so the ordinary build, tests and docs
// never see them: one executable per folder Tests/Fuzz/<Name> holding a main.swift, which hands its input to the
// parser's entry in Commands (FuzzTarget) through FuzzDriver, a C shim over libFuzzer's LLVMFuzzerRunDriver.
if ProcessInfo.processInfo.environment["STATETUI_FUZZ"] == "1" {
    let fuzzRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Tests/Fuzz")
    let fuzzNames = ((try? FileManager.default.contentsOfDirectory(atPath: fuzzRoot.path)) ?? []).sorted().filter {
        FileManager.default.fileExists(atPath: fuzzRoot.appendingPathComponent("\($0)/main.swift").path)
    }
    package.targets.append(.target(name: "FuzzDriver", path: "Tests/Fuzz/FuzzDriver"))
    for name in fuzzNames {
        package.targets.append(
            .executableTarget(name: name, dependencies: ["FuzzDriver", "Commands"], path: "Tests/Fuzz/\(name)"))
        package.products.append(.executable(name: name, targets: [name]))
    }
}
