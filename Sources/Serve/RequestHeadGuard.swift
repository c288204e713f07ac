import NIOCore

/// The first handler of every connection, before the HTTP decoder: it reads each request
/// head byte by byte, once (linear in what is sent), and refuses one past `ServeLimits` —
/// 414 for a request line too long, 431 for a header line too long, too many headers or a head
/// too large — before any of it is kept. It also holds the connection's clock: a head must be
/// complete within `requestSeconds` of the moment the server waits for one (408 otherwise, or
/// a plain close for a connection that sent nothing), and an answer the client stops reading
/// is dropped after `stallSeconds`. It tells `ConnectionRegistry` when the connection is idle
/// (waiting for, or reading, a request) and may be closed to make room for another.
///
/// Requests follow one another on a connection; a request with a body (which `serve` refuses)
/// ends the scan: the decoder's own limits then hold, and the connection closes after the answer.
final class RequestHeadGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = NIOAny
    typealias OutboundOut = ByteBuffer

    /// Sent by the HTTP handler (outbound) when an answer has been written in full.
    struct AnswerSent {}

    private enum Scan { case requestLine, headers, passthrough, refused }

    private let limits: ServeLimits
    private let registry: ConnectionRegistry
    private var scan = Scan.requestLine
    private var lineBytes = 0
    private var headerLines = 0
    private var headBytes = 0
    private var lastWasCR = false
    /// The first bytes of the current header line, lowercased: enough to tell `content-length:`
    /// and `transfer-encoding:`.
    private var lineStart: [UInt8] = []
    private var announcesBody = false
    /// Heads passed on whose answers are not yet written.
    private var pending = 0
    private var clock: Scheduled<Void>?
    private var stall: Scheduled<Void>?

    /// Adds the HTTP handlers after this one, when the first bytes arrive.
    private var installHTTP: ((ChannelPipeline.SynchronousOperations) throws -> Void)?

    init(limits: ServeLimits, registry: ConnectionRegistry, installHTTP: @escaping (ChannelPipeline.SynchronousOperations) throws -> Void) {
        self.limits = limits
        self.registry = registry
        self.installHTTP = installHTTP
        lineStart.reserveCapacity(Self.prefixLength)
    }

    private static let prefixLength = 18
    private static let bodyHeaders: [[UInt8]] = [Array("content-length:".utf8), Array("transfer-encoding:".utf8)]

    func channelActive(context: ChannelHandlerContext) {
        registry.opened(context.channel)
        startClock(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        clock?.cancel()
        stall?.cancel()
        registry.closed(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let install = installHTTP {
            installHTTP = nil
            do { try install(context.pipeline.syncOperations) } catch { return context.close(promise: nil) }
        }
        let buffer = unwrapInboundIn(data)
        if pending == 0 { registry.heardFrom(context.channel) }
        switch scan {
        case .refused:
            return  // read and dropped until the client is done or the clock runs out
        case .passthrough:
            context.fireChannelRead(data)
            return
        case .requestLine, .headers:
            break
        }
        var passed = buffer.readableBytes
        var refusal: (code: Int, phrase: String, why: String)?
        var completed = 0
        buffer.withUnsafeReadableBytes { bytes in
            for (index, byte) in bytes.enumerated() {
                if let problem = take(byte, completed: &completed) {
                    refusal = problem
                    passed = index
                    return
                }
                if scan == .passthrough {
                    passed = buffer.readableBytes
                    return
                }
            }
        }
        if completed > 0 { headsCompleted(completed, context: context) }
        if passed > 0 { context.fireChannelRead(wrapInboundOut(buffer.getSlice(at: buffer.readerIndex, length: passed)!)) }
        if let refusal { refuse(refusal.code, refusal.phrase, refusal.why, context: context) }
    }

    /// Scans one byte; returns the refusal it calls for, if any. Every byte of a head counts
    /// towards `headBytes` (blank lines before a request and CRs included), every byte of a line
    /// but its LF towards that line (its CR does not trip the line's limit).
    private func take(_ byte: UInt8, completed: inout Int) -> (code: Int, phrase: String, why: String)? {
        let lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
        defer { lastWasCR = byte == cr }
        headBytes += 1
        if headBytes > limits.headBytes {
            return (431, "Request Header Fields Too Large", "the request head is larger than \(limits.headBytes) bytes")
        }
        let blank = lineBytes == 0 || lineBytes == 1 && lastWasCR
        switch scan {
        case .requestLine:
            if byte == lf {
                if !blank { scan = .headers }  // blank lines before a request are allowed (RFC 9112 §2.2)
                lineBytes = 0
                lineStart.removeAll(keepingCapacity: true)
                return nil
            }
            lineBytes += 1
            if byte != cr && lineBytes > limits.requestLineBytes {
                return (414, "URI Too Long", "the request line is longer than \(limits.requestLineBytes) bytes")
            }
        case .headers:
            if byte == lf {
                if blank {
                    completed += 1
                    scan = announcesBody ? .passthrough : .requestLine
                    headBytes = 0
                    headerLines = 0
                    announcesBody = false
                    lineBytes = 0
                    return nil
                }
                headerLines += 1
                if Self.bodyHeaders.contains(where: { lineStart.count >= $0.count && lineStart.starts(with: $0) }) { announcesBody = true }
                lineBytes = 0
                lineStart.removeAll(keepingCapacity: true)
                if headerLines > limits.headerCount {
                    return (431, "Request Header Fields Too Large", "more than \(limits.headerCount) header lines")
                }
                return nil
            }
            lineBytes += 1
            if lineStart.count < Self.prefixLength { lineStart.append(byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0)) }
            if byte != cr && lineBytes > limits.headerLineBytes {
                return (431, "Request Header Fields Too Large", "a header line is longer than \(limits.headerLineBytes) bytes")
            }
        case .passthrough, .refused:
            break
        }
        return nil
    }

    private func headsCompleted(_ count: Int, context: ChannelHandlerContext) {
        if pending == 0 {
            clock?.cancel()
            clock = nil
            registry.busyAnswering(context.channel, true)
        }
        pending += count
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is AnswerSent else { return context.triggerUserOutboundEvent(event, promise: promise) }
        promise?.succeed()
        pending = max(0, pending - 1)
        if pending == 0 && scan != .refused {
            registry.busyAnswering(context.channel, false)
            startClock(context: context)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stall?.cancel()
            stall = nil
        } else if stall == nil {
            stall = context.eventLoop.assumeIsolated().scheduleTask(in: limits.stall) { [weak self] in
                self?.stall = nil
                context.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    /// The clock for the next head: past it, 408 if a head was begun, else a plain close.
    private func startClock(context: ChannelHandlerContext) {
        clock?.cancel()
        clock = context.eventLoop.assumeIsolated().scheduleTask(in: limits.request) { [weak self] in
            guard let self else { return }
            self.clock = nil
            if self.scan == .refused { return context.close(promise: nil) }
            if self.headBytes > 0 {
                self.refuse(408, "Request Timeout", "the request head was not complete within \(self.limits.requestSeconds) s", context: context)
            } else {
                context.close(promise: nil)
            }
        }
    }

    /// Answers `code` in plain words and closes: output first, so that the answer reaches the
    /// client, then the rest once it stops sending or after a short grace (what it still sends is
    /// read and dropped: closing with unread input would reset the connection and lose the answer).
    private func refuse(_ code: Int, _ phrase: String, _ why: String, context: ChannelHandlerContext) {
        scan = .refused
        registry.busyAnswering(context.channel, false)
        let text = "\(code) \(phrase): \(why)\n"
        var answer = context.channel.allocator.buffer(capacity: text.utf8.count + 160)
        answer.writeString("HTTP/1.1 \(code) \(phrase)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n\(text)")
        context.writeAndFlush(wrapOutboundOut(answer)).assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
        }
        clock?.cancel()
        clock = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { [weak self] in
            self?.clock = nil
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client finished sending after a refusal: nothing more to wait for.
        if scan == .refused, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
