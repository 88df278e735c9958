// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "statetui",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StateMachineKit", targets: ["StateMachineKit"]),
        .library(name: "FileTransfer", targets: ["FileTransfer"]),
    ],
    targets: [
        .target(name: "StateMachineKit"),
        .testTarget(name: "StateMachineKitTests", dependencies: ["StateMachineKit"]),
        .target(name: "CSHA256"),
        .target(name: "FileTransfer", dependencies: ["CSHA256"]),
        .testTarget(name: "FileTransferTests", dependencies: ["FileTransfer", "CSHA256"]),
        .executableTarget(name: "Benchmarks", dependencies: ["FileTransfer"]),
    ],
    swiftLanguageModes: [.v6]
)
