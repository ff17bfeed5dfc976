import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a ledger file and its WAL look like from outside: their sizes and modification times.
/// Another process's commit changes them, so two marks that differ tell an opening process
/// that whoever holds the lock is making progress (`LedgerDatabase`, opening).
struct DatabaseFilesMark: Equatable {
    private let database: FileMark?
    private let log: FileMark?

    init(_ path: String) {
        database = FileMark(path)
        log = FileMark(path + "-wal")
    }

    private struct FileMark: Equatable {
        let size: Int64
        let seconds: Int
        let nanoseconds: Int

        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            size = Int64(info.st_size)
            #if canImport(Darwin)
            (seconds, nanoseconds) = (info.st_mtimespec.tv_sec, info.st_mtimespec.tv_nsec)
            #else
            (seconds, nanoseconds) = (info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
            #endif
        }
    }
}
