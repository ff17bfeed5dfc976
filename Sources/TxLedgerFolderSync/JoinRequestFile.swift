import Foundation
import TxLedgerCore
import TxLedgerMembership

#if canImport(Glibc)
import Glibc
#endif

/// A join request left in a sync folder (Specs/devices.md, "Pairing"): a file
/// `txl-join-` + the device id's 26 symbols in lowercase + `.txr`, holding the request's
/// printable form and, on a second line, the name the device asks for. A sync ignores it; a
/// member finds it by the fingerprint the new device shows, so a request swapped in the folder
/// (another key) is never the one approved. Entries that are not regular files are skipped.
package enum JoinRequestFile {
    static let prefix = "txl-join-", suffix = ".txr"
    /// The most bytes read of a request file (its form is about 230 bytes, a name 64).
    static let maxBytes = 1024

    /// Writes `request` into `folder` (replacing this device's earlier request).
    /// - Returns: the file's path.
    package static func write(_ request: JoinRequest, folder: String) async throws -> String {
        let path = folder + "/" + prefix + request.identity.deviceID.description.lowercased() + suffix
        let text = request.printableText + "\n" + request.name + "\n"
        try await DedicatedThread.run {
            do throws(AtomicFile.Failure) {
                let file = try AtomicFile(path: path, mode: AtomicFile.umasked)
                try file.write(Data(text.utf8))
                try file.commit()
            } catch {
                throw BundleError.io(path: path, reason: error.reason)
            }
        }
        return path
    }

    /// The request for `vault` in `folder` whose device's fingerprint is `fingerprint` (dashes
    /// and case ignored).
    /// - Throws: `LedgerError.invalidInput` (field `fingerprint`) if no request there has it.
    package static func find(fingerprint: String, vault: String, folder: String) async throws -> JoinRequest {
        let wanted = fingerprint.uppercased().filter { $0 != "-" && $0 != " " }
        let entries = try await DedicatedThread.run {
            (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        }.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }
        for entry in entries.sorted() {
            let path = folder + "/" + entry
            let text = try await DedicatedThread.run { readRegularFile(path) }
            let lines = (text ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count >= 2,
                let request = try? JoinRequest(printable: lines[0], vault: vault, name: lines[1]),
                request.fingerprint.filter({ $0 != "-" }) == wanted
            else { continue }
            return request
        }
        throw LedgerError.invalidInput(
            field: "fingerprint",
            reason: "no join request for vault '\(OutsideText.escaped(vault))' in the folder has this fingerprint"
        )
    }

    /// At most `maxBytes` of the regular file at `path`, opened without following a link and
    /// without blocking (a FIFO named like a request hangs nothing); `nil` for anything else.
    private static func readRegularFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return String(decoding: handle.readData(ofLength: maxBytes), as: UTF8.self)
    }
}
