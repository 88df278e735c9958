// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "statetui",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StateMachineKit", targets: ["StateMachineKit"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "TerminalUITesting", targets: ["TerminalUITesting"]),
    ],
    targets: [
        .target(name: "StateMachineKit"),
        .testTarget(name: "StateMachineKitTests", dependencies: ["StateMachineKit"]),
        .systemLibrary(
            name: "CNCurses",
            path: "Sources/CNCurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        .target(name: "TerminalUI", dependencies: ["CNCurses"]),
        .target(name: "TerminalUITesting", dependencies: ["TerminalUI"]),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "TerminalUITesting", "CNCurses"],
            exclude: ["__Snapshots__"]
        ),
        .executableTarget(name: "Benchmarks", dependencies: ["TerminalUI"]),
    ],
    swiftLanguageModes: [.v6]
)
