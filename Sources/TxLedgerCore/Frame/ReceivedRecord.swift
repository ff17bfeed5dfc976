/// A record a payload carries, as its reader validated it, and the frame it came in when a
/// store may keep that frame as it is (`ReceivedFrame`; `FrameDecoder.receivedRecord`).
///
/// A tuple, not a struct: a reader's records travel by the million from the thread that
/// validates them to the merge, and a tuple taken apart (`let (state, frame) = received`)
/// moves its two parts, where reading a struct's two properties copies both (every reference
/// a record holds retained, then released with the struct).
package typealias ReceivedRecord = (state: RecordState, frame: ReceivedFrame?)
