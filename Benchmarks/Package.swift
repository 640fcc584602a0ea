// swift-tools-version: 6.1
// The benchmarks: a package of their own, so that `swift test` in the main package never
// builds them. Run: swift run --package-path Benchmarks -c release anim-bench
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which differs between clones.
let mainPackage = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.lastPathComponent

let package = Package(
  name: "anim-benchmarks",
  dependencies: [.package(path: "..")],
  targets: [
    // mallinfo2 for engine.memory (Swift's Glibc module leaves out <malloc.h>).
    .target(name: "CHeapInfo"),
    .executableTarget(
      name: "anim-bench",
      dependencies: [
        "CHeapInfo",
        .product(name: "AnimCore", package: mainPackage),
        .product(name: "AnimLanguage", package: mainPackage),
        .product(name: "AnimRuntime", package: mainPackage),
        .product(name: "AnimTestSupport", package: mainPackage),
      ],
      swiftSettings: [.unsafeFlags(["-Ounchecked", "-wmo"])]
    ),
  ]
)
