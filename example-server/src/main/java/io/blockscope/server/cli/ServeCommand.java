package io.blockscope.server.cli;

import io.blockscope.server.cache.BlockCache;
import io.blockscope.server.cache.BlockCaches;
import io.blockscope.server.cache.CacheConfig;
import io.blockscope.server.demo.DemoControl;
import io.blockscope.server.filter.FilterClasses;
import io.blockscope.server.region.CacheDescription;
import io.blockscope.server.region.Region;
import io.blockscope.server.region.Tables;
import io.blockscope.server.rpc.RpcLimits;
import io.blockscope.server.rpc.RpcServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "serve",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = {
            "Serves tables over HTTP (Jetty 12): get, multi-get and scan RPCs (see docs/rpc.md), /healthz and /status. "
                    + "Prints 'blockscope-example-server listening on http://HOST:PORT' on stdout once ready; stops on SIGTERM "
                    + "or SIGINT.",
            ""
        })
final class ServeCommand implements Callable<Integer> {

    static final String LISTENING = "blockscope-example-server listening on ";

    /** Where the tables come from: a loaded directory, or a temporary table made now. */
    static final class Source {
        @Option(names = "--data", paramLabel = "DIR", description = "Directory of tables made by the load command.")
        Path data;

        @Option(
                names = "--rows",
                paramLabel = "N",
                description = "No data directory: load a temporary table of N rows first (deleted on exit).")
        Long rows;
    }

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Source source;

    @Option(
            names = "--host",
            paramLabel = "HOST",
            defaultValue = "127.0.0.1",
            description = "Address to bind. Default: ${DEFAULT-VALUE}.")
    String host;

    @Option(
            names = "--port",
            paramLabel = "PORT",
            defaultValue = "0",
            description = "Port to bind; 0 picks a free one. Default: ${DEFAULT-VALUE}.")
    int port;

    @Mixin
    CacheOptions cache;

    @Option(
            names = "--warm",
            paramLabel = "true|false",
            defaultValue = "false",
            fallbackValue = "true",
            arity = "0..1",
            description = "Read every table into the cache before listening. Default: ${DEFAULT-VALUE}.")
    boolean warm;

    @Option(
            names = "--max-request-bytes",
            paramLabel = "SIZE",
            defaultValue = "1m",
            converter = Converters.Size.class,
            description = "Largest request body (413 above). Default: ${DEFAULT-VALUE}.")
    long maxRequestBytes;

    @Option(
            names = "--max-multiget",
            paramLabel = "N",
            defaultValue = "1000",
            description = "Most rows in one multi-get (400 above). Default: ${DEFAULT-VALUE}.")
    int maxMultiGet;

    @Option(
            names = "--max-scan-rows",
            paramLabel = "N",
            defaultValue = "10000",
            description = "Most rows per scan response; more come by continuation. Default: ${DEFAULT-VALUE}.")
    int maxScanRows;

    @Option(
            names = "--max-response-bytes",
            paramLabel = "SIZE",
            defaultValue = "4m",
            converter = Converters.Size.class,
            description =
                    "A scan response ends after the row that reaches this size; more come by continuation. Default: ${DEFAULT-VALUE}.")
    long maxResponseBytes;

    @Option(
            names = "--request-timeout",
            paramLabel = "DURATION",
            defaultValue = "30s",
            converter = Converters.Time.class,
            description =
                    "Gets running longer fail with 503; scans return what they have with a continuation. Default: ${DEFAULT-VALUE}.")
    Duration requestTimeout;

    @Option(
            names = "--idle-timeout",
            paramLabel = "DURATION",
            defaultValue = "30s",
            converter = Converters.Time.class,
            description = "Connections idle (or clients not reading) this long are closed. Default: ${DEFAULT-VALUE}.")
    Duration idleTimeout;

    @Option(
            names = "--server-threads",
            paramLabel = "N",
            defaultValue = "64",
            description = "Most request threads. Default: ${DEFAULT-VALUE}.")
    int serverThreads;

    @Option(
            names = "--max-scan-rows-examined",
            paramLabel = "N",
            defaultValue = "100000",
            description = "Most rows one scan response reads, returned or filtered out; more come by continuation."
                    + " Default: ${DEFAULT-VALUE}.")
    long maxScanRowsExamined;

    @Option(
            names = "--max-scan-bytes-examined",
            paramLabel = "SIZE",
            defaultValue = "64m",
            converter = Converters.Size.class,
            description = "Most cell bytes one scan response reads; more come by continuation, a single larger row"
                    + " gets 400. Default: ${DEFAULT-VALUE}.")
    long maxScanBytesExamined;

    @Option(
            names = "--slow-client-timeout",
            paramLabel = "DURATION",
            defaultValue = "30s",
            converter = Converters.Time.class,
            description = "A request body slower to arrive, or a response slower to be read, is cut off and its"
                    + " blocks released. Default: ${DEFAULT-VALUE}.")
    Duration slowClientTimeout;

    @Option(
            names = "--max-connections",
            paramLabel = "N",
            defaultValue = "2048",
            description = "Open connections at most; more wait to be accepted. Default: ${DEFAULT-VALUE}.")
    int maxConnections;

    @Option(
            names = "--max-connections-per-client",
            paramLabel = "N",
            defaultValue = "256",
            description =
                    "Open connections from one client address at most; more are closed. Default: ${DEFAULT-VALUE}.")
    int maxConnectionsPerClient;

    @Option(
            names = "--allow-filter-classes",
            paramLabel = "CLASS[,CLASS...]",
            split = ",",
            description = "Filter classes clients may name with filter=class:NAME (fully qualified). Without it,"
                    + " class: filters are refused (403): a client could otherwise run any matching class on the"
                    + " server's class path.")
    java.util.List<String> allowFilterClasses = new java.util.ArrayList<>();

    @Mixin
    TableOptions table;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description =
                    "Properties file of option defaults (keys are option names without dashes, e.g. deploy=cbc-offheap; "
                            + "serve.port=8080 applies to serve only). Flags win over the file.")
    Path config;

    @Option(
            names = "--demo-control",
            paramLabel = "FILE",
            description =
                    "Demo only (bash .ci/demo): a file whose 'leak=on' line starts a reader that leaks block references.")
    Path demoControl;

    @Override
    public Integer call() throws Exception {
        RpcLimits limits = new RpcLimits(
                maxRequestBytes,
                maxMultiGet,
                maxScanRows,
                maxResponseBytes,
                requestTimeout,
                idleTimeout,
                maxScanRowsExamined,
                maxScanBytesExamined,
                slowClientTimeout,
                maxConnections,
                maxConnectionsPerClient);
        FilterClasses filterClasses = FilterClasses.allowing(allowFilterClasses, ServeCommand.class.getClassLoader());
        if (source != null && source.data != null) {
            return serve(source.data, limits, filterClasses);
        }
        long rows = source != null && source.rows != null ? source.rows : 0;
        if (rows <= 0) {
            throw new IllegalArgumentException(
                    "give --data DIR (a directory made by load) or --rows N (a temporary table)");
        }
        Path temporary = Files.createTempDirectory("blockscope-serve-");
        // Deleted when serve returns (a failed start) and by the shutdown hook (the normal end).
        Thread cleanup = new Thread(() -> TempDirectories.deleteRecursively(temporary), "serve-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            table.load(temporary, rows, System.err);
            return serve(temporary, limits, filterClasses);
        } finally {
            TempDirectories.deleteRecursively(temporary);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is exiting: the hook runs anyway
            }
        }
    }

    /** Opens the tables of {@code dataDirectory} and serves them until the JVM is told to stop. */
    private int serve(Path dataDirectory, RpcLimits limits, FilterClasses filterClasses) throws Exception {
        CacheConfig cacheConfig = cache.config(cache.deploy, cache.readPath, Tables.footprint(dataDirectory));
        BlockCache blockCache = BlockCaches.create(cacheConfig);
        Tables tables = null;
        RpcServer server = null;
        DemoControl demo = null;
        try {
            tables = Tables.open(dataDirectory, blockCache);
            demo = DemoControl.start(demoControl, blockCache, tables.regions(), System.err);
            if (warm) {
                for (Region region : tables.regions()) {
                    region.warm();
                }
                System.err.println("[serve] warmed: " + CacheDescription.summary(blockCache));
            }
            Instant started = Instant.now();
            try {
                server = RpcServer.start(
                        host,
                        port,
                        tables,
                        limits,
                        filterClasses,
                        () -> status(cacheConfig, blockCache, started),
                        serverThreads);
            } catch (Exception e) {
                throw new IllegalArgumentException(
                        "cannot listen on " + host + ":" + port + " (" + e.getMessage() + ")", e);
            }
            RpcServer running = server;
            Thread stopper = new Thread(running::close, "serve-stop");
            Runtime.getRuntime().addShutdownHook(stopper);
            System.err.println("[serve] cache " + CacheOptions.describe(cacheConfig) + "; tables " + tables.regions());
            System.out.println(LISTENING + server.uri());
            System.out.flush();
            server.join();
            return 0;
        } finally {
            if (demo != null) {
                demo.close();
            }
            if (server != null) {
                server.close();
            }
            if (tables != null) {
                tables.close();
            }
            blockCache.shutdown();
        }
    }

    private static Map<String, Object> status(CacheConfig config, BlockCache cache, Instant started) {
        Map<String, Object> server = new LinkedHashMap<>();
        server.put("readPath", CacheDescription.readPath(cache));
        server.put("deploy", config.deploy().label());
        server.put("startedAt", started.toString());
        server.put("uptimeSeconds", Duration.between(started, Instant.now()).toSeconds());
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("server", server);
        status.put("cache", CacheDescription.of(cache));
        return status;
    }
}
