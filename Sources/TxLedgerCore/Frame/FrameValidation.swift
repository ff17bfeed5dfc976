import Foundation

/// Validates frames that a decoder read in turn (`DecodedFrame`), on as many threads as there
/// are cores: reading a payload's frames must go in order (they introduce the tables later
/// frames refer to), but validating each record needs only its own fields, and it is more than
/// half of reading a record. A payload's reader on one thread was the longest thread of a new
/// device's first sync, with the other core partly idle.
package struct FrameValidation {
    /// The records of the frames, in order, up to the first that did not validate.
    package var records: [ReceivedRecord?]
    /// The first frame that did not validate, by its position in the frames given, and why.
    package let failure: (position: Int, error: any Error)?

    /// Frames a thread takes at least: fewer are validated on the calling thread alone.
    static let minimumPerThread = 64

    /// The threads that validate at most: the cores this process may use, read once (Foundation
    /// reads them from the system's files at each call: 0.5% of a new device's first sync when
    /// read for each group of frames).
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// Validates `frames`; the work is split in contiguous parts, one per thread, and each part
    /// stops at its first failure.
    package init(_ frames: [DecodedFrame]) {
        let threads = max(1, min(Self.cores, frames.count / Self.minimumPerThread))
        var records = [ReceivedRecord?](repeating: nil, count: frames.count)
        let failures = LockedValue([(position: Int, error: any Error)]())
        records.withUnsafeMutableBufferPointer { buffer in
            let slots = Slots(buffer: buffer)
            DispatchQueue.concurrentPerform(iterations: threads) { part in
                let range = frames.count * part / threads..<frames.count * (part + 1) / threads
                if let failure = Self.validate(frames, range, into: slots.buffer) {
                    failures.update { $0.append(failure) }
                }
            }
        }
        self.records = records
        failure = failures.get().min { $0.position < $1.position }
    }

    /// The records' slots, which the parts share: each part writes only its own.
    private struct Slots: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<ReceivedRecord?>
    }

    /// Validates `frames[range]` into the same slots of `slots`, up to the first failure.
    private static func validate(
        _ frames: [DecodedFrame],
        _ range: Range<Int>,
        into slots: UnsafeMutableBufferPointer<ReceivedRecord?>
    ) -> (position: Int, error: any Error)? {
        // Through the array's buffer: its subscript copied each frame (its fields, tables and
        // bytes retained and released) before validating it.
        frames.withUnsafeBufferPointer { frames in
            for position in range {
                do {
                    slots[position] = try frames[position].validated()
                } catch {
                    return (position, error)
                }
            }
            return nil
        }
    }
}
