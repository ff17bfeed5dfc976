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

    /// Validates `frames` (each is taken out and put back as it was); the work is split in
    /// contiguous parts, one per thread, and each part stops at its first failure.
    package init(_ frames: inout [DecodedFrame]) {
        let count = frames.count
        let threads = max(1, min(Self.cores, count / Self.minimumPerThread))
        var records = [ReceivedRecord?](repeating: nil, count: count)
        let failures = LockedValue([(position: Int, error: any Error)]())
        frames.withUnsafeMutableBufferPointer { frames in
            records.withUnsafeMutableBufferPointer { buffer in
                let shared = Shared(frames: frames, slots: buffer)
                DispatchQueue.concurrentPerform(iterations: threads) { part in
                    let range = count * part / threads..<count * (part + 1) / threads
                    if let failure = Self.validate(shared.frames, range, into: shared.slots) {
                        failures.update { $0.append(failure) }
                    }
                }
            }
        }
        self.records = records
        failure = failures.get().min { $0.position < $1.position }
    }

    /// No frames, no records.
    package init() {
        records = []
        failure = nil
    }

    /// The frames and the records' slots, which the parts share: each part touches only its own.
    private struct Shared: @unchecked Sendable {
        let frames: UnsafeMutableBufferPointer<DecodedFrame>
        let slots: UnsafeMutableBufferPointer<ReceivedRecord?>
    }

    /// Validates `frames[range]` into the same slots of `slots`, up to the first failure.
    private static func validate(
        _ frames: UnsafeMutableBufferPointer<DecodedFrame>,
        _ range: Range<Int>,
        into slots: UnsafeMutableBufferPointer<ReceivedRecord?>
    ) -> (position: Int, error: any Error)? {
        // Each frame moved out while it is validated, then back: read in place, a frame was
        // copied first (its bytes, fields and tables retained, then released: `slots` might
        // have been the same memory, as far as the compiler could tell).
        for position in range {
            let frame = (frames.baseAddress! + position).move()
            defer { (frames.baseAddress! + position).initialize(to: frame) }
            do {
                slots[position] = try frame.validated()
            } catch {
                return (position, error)
            }
        }
        return nil
    }
}
