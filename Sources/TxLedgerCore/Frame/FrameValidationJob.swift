import Dispatch

/// A `FrameValidation` run on another thread while the thread that reads a payload reads its
/// next frames (`PayloadDecoder`). Validating on the reading thread made it wait for every
/// group's validation before reading on: it was the longest thread of a new device's first
/// sync (4.7 s of CPU in a 5.2 s run, a third of it validation), while the merge waited for it.
package final class FrameValidationJob: @unchecked Sendable {
    // `frames` and `validation` are written by the job before `done` is signalled and read by
    // `wait()` only after it: the semaphore orders the two threads.
    private var frames: [DecodedFrame]
    private var validation: FrameValidation?
    private let done = DispatchSemaphore(value: 0)

    /// How many frames it validates: kept apart, since `frames` is the job's while it runs (it
    /// may read empty then: `withUnsafeMutableBufferPointer` moves an array's storage out).
    package let count: Int

    /// Starts validating `frames` on a thread of Dispatch's global pool (not Swift's cooperative
    /// pool); no frames need no thread.
    package init(_ frames: [DecodedFrame]) {
        self.frames = frames
        count = frames.count
        guard !frames.isEmpty else {
            validation = FrameValidation()
            done.signal()
            return
        }
        DispatchQueue.global().async { [self] in
            validation = FrameValidation(&self.frames)
            done.signal()
        }
    }

    /// Waits for the validation and returns it, with the frames validated (their fields go back
    /// to the decoder, `FrameDecoder.recycle`). Called once.
    package func wait() -> (validation: FrameValidation, frames: [DecodedFrame]) {
        done.wait()
        defer { frames = [] }
        return (validation.take()!, frames)
    }
}
