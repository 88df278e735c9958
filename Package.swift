// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "statetui",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StateMachineKit", targets: ["StateMachineKit"]),
    ],
    targets: [
        .target(name: "StateMachineKit"),
        .testTarget(name: "StateMachineKitTests", dependencies: ["StateMachineKit"]),
        .executableTarget(name: "Benchmarks", dependencies: ["StateMachineKit"]),
    ],
    swiftLanguageModes: [.v6]
)
