/// A record a payload carries, as its reader validated it, and the frame it came in when a
/// store may keep that frame as it is (`ReceivedFrame`; `FrameDecoder.receivedRecord`).
package struct ReceivedRecord: Sendable {
    package let state: RecordState
    package let frame: ReceivedFrame?
}
