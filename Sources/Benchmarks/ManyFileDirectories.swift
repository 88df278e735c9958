import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The directories of many files the copy groups make, removed only after the last group has run.
///
/// On ext4 without a journal (this machine's root file system), every create skips the inodes freed in the
/// last five minutes by reading each one's inode table block, so a group that creates thousands of files
/// right after another removed thousands ran several times slower than alone (`cp -a` of 9,900 small files:
/// 0.5 s, or 4.2 s after a removal). Removing them all at the end keeps one group's removal out of the next
/// group's figures.
private let removedAfterAllGroups = Mutex<[String]>([])

/// A new directory `BASE/statetui-NAME-XXXXXX` (`/tmp` by default), removed by ``removeManyFileDirectories()``
/// after the last group; nil when it cannot be made.
func makeManyFileDirectory(_ name: String, in base: String = "/tmp") -> String? {
    guard let path = makeTemporaryDirectory(name, in: base) else { return nil }
    removedAfterAllGroups.withLock { $0.append(path) }
    return path
}

/// A new, empty directory `BASE/statetui-NAME-XXXXXX` (`mkdtemp`, `/tmp` by default); nil when it cannot be
/// made (`errno` says why). The caller removes it.
func makeTemporaryDirectory(_ name: String, in base: String = "/tmp") -> String? {
    var template = Array("\(base)/statetui-\(name)-XXXXXX".utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { return nil }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Removes every directory ``makeManyFileDirectory(_:)`` made.
func removeManyFileDirectories() {
    for path in removedAfterAllGroups.withLock({ $0 }) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
