#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The preflight check of a destination directory, made before any transfer starts.
public enum Destination {
    /// Throws `destinationNotWritableDirectory` unless `directory` exists, is a directory and the user
    /// may create files in it.
    public static func validate(_ directory: String, fileSystem: FileSystem = .posix) throws(TransferError) {
        let status: FileStatus
        do {
            status = try fileSystem.statusOfPath(directory)
        } catch {
            throw .destinationNotWritableDirectory(path: directory, reason: error.description)
        }
        guard status.isDirectory else {
            throw .destinationNotWritableDirectory(path: directory, reason: Errno.notDirectory.description)
        }
        do {
            try fileSystem.access(directory, W_OK | X_OK)
        } catch {
            throw .destinationNotWritableDirectory(path: directory, reason: error.description)
        }
    }
}
