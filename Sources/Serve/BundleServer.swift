import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import QuakeBundleFormat
import QuakeCommon

/// `quake-bake serve`: the current bundle over HTTP for MapLibre GL JS in a browser, on
/// loopback unless told otherwise. See `BundleRoutes` for what it answers.
///
/// Built on SwiftNIO, not on FlyingFox (which the stand-in still uses): FlyingFox 0.27.1 reads
/// a request line and headers with no limit, one byte at a time through an async sequence
/// (a 64 KB URL cost 5 s of CPU), has no read timeout, no connection limit, and ends its
/// server when `accept` fails (EMFILE); its decoder and accept loop are internal, so neither
/// configuration nor a wrapper around its sockets could bound them. NIO's are bounded
/// (`RequestHeadGuard` in front of its decoder, whose own limits stay as a backstop), it keeps
/// listening through EMFILE, and its event loop times connections.
public final class BundleServer: Sendable {
    private let address: ListenAddress
    private let port: Int
    private let limits: ServeLimits
    private let logger: Logger
    private let routes: BundleRoutes

    /// A server for the bundle `locate` finds (called for every request), on `address:port`
    /// (`port` 0: a free one). The current bundle's tile archive and style are opened and
    /// checked now, so a bundle `serve` cannot show is refused before it listens.
    public init(address: ListenAddress, port: Int, limits: ServeLimits, logger: Logger, locate: @escaping @Sendable () throws -> URL) throws {
        self.address = address
        self.port = port
        self.limits = try limits.validate()
        self.logger = logger
        routes = BundleRoutes(locate: locate, archives: ArchiveCache(), logger: logger)
        let bundle = try locate()
        let archive = try routes.archives.archive(for: bundle)
        _ = try ServeStyle.rewrite(bundle.appendingPathComponent(BundleFileName.style), host: "127.0.0.1", minZoom: archive.minZoom, maxZoom: archive.maxZoom)
    }

    /// Serves until cancelled; `onListening` gets the page's URL once the socket listens.
    public func run(onListening: @Sendable (URL) -> Void) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let pool = NIOThreadPool(numberOfThreads: max(2, System.coreCount))
        pool.start()
        let registry = ConnectionRegistry(limit: limits.maxConnections ?? ServeLimits.connectionsTheDescriptorsAllow(), logger: logger)
        let channel: Channel
        var socketAddress = address.socketAddress
        socketAddress.port = port
        do {
            channel = try await bootstrap(group: group, pool: pool, registry: registry).bind(to: socketAddress).get()
        } catch {
            throw QuakeBakeError("cannot listen on \(address.host) port \(port): \(error)")
        }
        let bound = channel.localAddress?.port ?? port
        if !address.isLoopback {
            logger.warning("listening on \(address.host), not loopback: anyone who can reach this machine can open the map and download the bundle (--host 127.0.0.1 keeps it to this machine)")
        }
        if address.isEveryInterface {
            let shared = address.sharedURL(port: bound).map { "; from other machines, \($0.absoluteString)" } ?? ""
            logger.info("listening on every interface (\(address.host)): on this machine, \(address.pageURL(port: bound).absoluteString)\(shared)")
        }
        onListening(address.pageURL(port: bound))
        try await withTaskCancellationHandler {
            try await channel.closeFuture.get()
        } onCancel: {
            channel.close(promise: nil)
        }
        try? await group.shutdownGracefully()
        try? await pool.shutdownGracefully()
    }

    private func bootstrap(group: EventLoopGroup, pool: NIOThreadPool, registry: ConnectionRegistry) -> ServerBootstrap {
        let limits = self.limits, routes = self.routes, logger = self.logger
        // The decoder's own limits, a backstop behind `RequestHeadGuard`'s (which count the same
        // things a little differently, so these are looser).
        let backstop = {
            var backstop = NIOHTTPDecoderLimitConfiguration()
            backstop.maxHeaderFieldSize = 2 * max(limits.requestLineBytes, limits.headerLineBytes)
            backstop.maxHeaderListSize = 2 * limits.headBytes
            backstop.maxHeaderFieldCount = 2 * limits.headerCount
            return backstop
        }()
        // A backlog of 2,048: with TCP_DEFER_ACCEPT it also bounds the connections the kernel
        // holds before they send anything (past it, SYN cookies hand them over at once).
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 2_048)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        #if os(Linux)
        // A connection is handed over once it has sent something (or after the request time):
        // sockets that only connect wait in the kernel, not in the queue before a real request.
        let deferred = bootstrap.serverChannelOption(.tcpOption(NIOBSDSocket.Option(rawValue: TCP_DEFER_ACCEPT)), value: SocketOptionValue(limits.requestSeconds))
        #else
        let deferred = bootstrap
        #endif
        return deferred
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        AcceptErrorHandler(registry: registry, logger: logger),
                        AcceptBackoffHandler(shouldForwardIOErrorCaught: false, backoffProvider: AcceptErrorHandler.backoff),
                    ])
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                // The HTTP handlers join once the connection sends its first bytes: a socket that
                // only connects (a thousand of them, in an attack) costs the guard alone.
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RequestHeadGuard(limits: limits, registry: registry) { pipeline in
                        try pipeline.addHandlers([
                            HTTPResponseEncoder(),
                            ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: backstop)),
                            HTTPServerPipelineHandler(), HTTPServerProtocolErrorHandler(),
                            BundleChannelHandler(routes: routes, pool: pool, logger: logger),
                        ])
                    })
                }
            }
    }
}
