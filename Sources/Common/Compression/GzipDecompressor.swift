import CZlib
import Foundation

extension Gzip {
    /// Decompresses gzip a piece at a time, for data too large to hold whole.
    ///
    /// Hand it compressed input with `feed(_:)`, take the decompressed output with
    /// `read(into:)` until that returns 0, feed the next piece, and call `finish()` after
    /// the last. Like `gzip -d` it reads every member and tolerates zero padding after
    /// the last one; `read(into:)` throws on corrupt data and `finish()` when the data
    /// ends inside a member. `Gzip.decompress` is this over the whole data at once.
    ///
    /// ```swift
    /// let gzip = try Gzip.Decompressor()
    /// while let piece = try file.read(upToCount: 1 << 16), !piece.isEmpty {
    ///     gzip.feed(piece)
    ///     var count = try gzip.read(into: buffer)
    ///     while count > 0 {
    ///         use(buffer[..<count])
    ///         count = try gzip.read(into: buffer)
    ///     }
    /// }
    /// try gzip.finish()
    /// ```
    public final class Decompressor {
        /// Where the data stands between members.
        private enum Position {
            /// Before the first member: whatever comes is read as a member.
            case start
            /// Inside a member.
            case member
            /// Just after a member: another member or zero padding may follow.
            case afterMember
            /// In zero padding after the last member: only zeros may follow.
            case padding
        }

        /// zlib's state, at a fixed address (zlib refuses a stream that moved).
        private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        private var position = Position.start
        /// The piece being read and how much of it zlib has taken.
        private var input = Data()
        private var consumed = 0
        /// The last inflate filled the whole output buffer, so zlib may hold more output.
        private var outputPending = false
        /// Damage met by an inflate that wrote output first: that output is handed out, and the
        /// next read throws this (the text before the damage is the same whatever the buffer's size).
        private var damage: Failure?

        /// Starts a decompressor; throws when zlib cannot start.
        public init() throws {
            stream.initialize(to: z_stream())
            guard qb_inflateInit2(stream, 15 + 16) == Z_OK else {
                stream.deallocate()
                throw Failure(description: "gzip: inflateInit2 failed")
            }
        }

        deinit {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }

        /// Hands over the next piece of compressed input; read all output of the previous piece first.
        public func feed(_ data: Data) {
            precondition(consumed == input.count && !outputPending, "Gzip.Decompressor: feed before the previous input was read")
            input = data
            consumed = 0
        }

        /// Decompresses into `buffer`; returns how many bytes it wrote, 0 once the input fed so far is used up.
        public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            precondition(!buffer.isEmpty, "Gzip.Decompressor: read into an empty buffer")
            if let damage { throw damage }
            while consumed < input.count || outputPending {
                switch position {
                case .start:
                    position = .member
                case .afterMember:
                    // Another member follows, or zero padding ends the data (a member never starts with 0).
                    let next = input[input.startIndex + consumed]
                    if next == 0 {
                        position = .padding
                    } else if next == 0x1F {  // the first byte of every gzip member
                        inflateReset(stream)
                        position = .member
                    } else {
                        throw Failure(description: "gzip: corrupt data (bytes after the end of the compressed data that start no gzip member)")
                    }
                case .padding:
                    guard input[(input.startIndex + consumed)...].allSatisfy({ $0 == 0 }) else {
                        throw Failure(description: "gzip: corrupt data (bytes after the zero padding)")
                    }
                    consumed = input.count
                case .member:
                    let produced = try inflateStep(into: buffer)
                    if produced > 0 { return produced }
                }
            }
            return 0
        }

        /// Ends the input; throws when the data ended inside a member.
        public func finish() throws {
            precondition(consumed == input.count && !outputPending, "Gzip.Decompressor: finish before all output was read")
            if position == .member { throw Failure(description: "gzip: data is truncated") }
        }

        /// One call of inflate on the rest of the input; returns the bytes it wrote.
        private func inflateStep(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let capacity = min(buffer.count, Int(uInt.max))
            let offered = min(input.count - consumed, Int(uInt.max))
            let status: Int32 = input.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                stream.pointee.next_in = offered > 0 ? UnsafeMutablePointer(mutating: bytes.bindMemory(to: Bytef.self).baseAddress! + consumed) : nil
                stream.pointee.avail_in = uInt(offered)
                stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(capacity)
                return inflate(stream, Z_NO_FLUSH)
            }
            consumed += offered - Int(stream.pointee.avail_in)
            let produced = capacity - Int(stream.pointee.avail_out)
            // A full buffer may leave output inside zlib, to be had even with no further input.
            outputPending = status == Z_OK && produced == capacity
            switch status {
            case Z_STREAM_END:
                position = .afterMember
            case Z_OK:
                break
            case Z_BUF_ERROR where stream.pointee.avail_in == 0:
                break   // needs more input than it has been fed
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "code \(status)"
                let failure = Failure(description: "gzip: corrupt data (\(message))")
                // The damage may be found in the call that wrote the text before it (a wrong
                // check value always is, after the whole member's text): that text is read first.
                guard produced > 0 else { throw failure }
                damage = failure
                outputPending = false
            }
            return produced
        }
    }
}
