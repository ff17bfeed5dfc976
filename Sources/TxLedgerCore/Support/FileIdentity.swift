import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Which file a path names: its device and inode, so that two paths (through `./`, a symbolic
/// or a hard link) to one file compare equal.
package struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    package init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// The file at `path`, if there is one; a symbolic link itself unless `following` (a
    /// rename replaces the link, not what it points to).
    package init?(path: String, following: Bool) {
        var info = stat()
        guard (following ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        self.init(info)
    }

    /// Creates the file at `path`, empty and readable and writable by its owner only, if
    /// nothing is there (not even a dangling link); anything there is left as it is.
    package static func createPrivately(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if descriptor >= 0 { close(descriptor) }
    }
}
