// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ExternalKeyboard",
    platforms: [.macOS(.v15)],
    products: [
        // The extension: a shared library kbhost loads (libExternalKeyboard.so).
        .library(name: "ExternalKeyboard", type: .dynamic, targets: ["ExternalKeyboard"]),
    ],
    dependencies: [
        // The KeyboardHost SDK: KeyboardExtension to write the keyboard, KeyboardTesting to test
        // it, and the package-extension plugin to bundle it.
        .package(name: "KeyboardHost", path: "../.."),
    ],
    targets: [
        .target(name: "ExternalKeyboard", dependencies: [.product(name: "KeyboardExtension", package: "KeyboardHost")]),
        .testTarget(
            name: "ExternalKeyboardTests",
            dependencies: ["ExternalKeyboard", .product(name: "KeyboardTesting", package: "KeyboardHost")]
        ),
    ]
)
