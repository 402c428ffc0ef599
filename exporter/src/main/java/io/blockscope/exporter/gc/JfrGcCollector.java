package io.blockscope.exporter.gc;

import io.blockscope.exporter.Log;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import jdk.jfr.AnnotationElement;
import jdk.jfr.EventFactory;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.StackTrace;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

/**
 * Reads GC events from a JFR {@link RecordingStream} with only the events the metrics need.
 *
 * <p>This is the only class that touches {@code jdk.jfr}: on a JVM without the module it fails to
 * link, and {@link GcMonitoring} falls back to the MXBeans.
 */
final class JfrGcCollector implements AutoCloseable, EventBarrier, StreamThread {

    private static final String GC = "jdk.GarbageCollection";
    private static final String PHASE_PAUSE = "jdk.GCPhasePause";
    private static final String HEAP_SUMMARY = "jdk.GCHeapSummary";
    private static final String ALLOCATION_SAMPLE = "jdk.ObjectAllocationSample";
    private static final String DATA_LOSS = "jdk.DataLoss";
    private static final String BARRIER = "blockscope.GcBarrier";
    /** JFR's own default for allocation samples: enough for a rate, cheap enough to leave on. */
    private static final String ALLOCATION_THROTTLE = "150/s";
    /** The stream keeps its data on disk; keep only what a late consumer might still need. */
    private static final Duration MAX_AGE = Duration.ofMinutes(2);

    private static final long START_TIMEOUT_SECONDS = 10;

    private final RecordingStream stream;
    private final Thread thread;
    private final BarrierState barriers;

    private JfrGcCollector(RecordingStream stream, Thread thread, BarrierState barriers) {
        this.stream = stream;
        this.thread = thread;
        this.barriers = barriers;
    }

    /**
     * Starts the stream on a daemon thread and returns once the recording runs, so that every
     * collection after this call is seen.
     *
     * @throws Exception (or a {@link LinkageError}) when JFR cannot start; nothing is left running
     */
    static JfrGcCollector start(GcMetrics metrics, PrometheusRegistry registry, PrometheusProperties properties)
            throws Exception {
        Counter allocated = Counter.builder(properties)
                .name("blockscope_allocated_bytes")
                .help("Heap allocation, estimated from jdk.ObjectAllocationSample weights.")
                .unit(Unit.BYTES)
                .withoutExemplars()
                .build();
        Counter dataLoss = Counter.builder(properties)
                .name("blockscope_jfr_data_loss_bytes")
                .help("Bytes of JFR events lost (jdk.DataLoss).")
                .unit(Unit.BYTES)
                .withoutExemplars()
                .build();
        Gauge lag = Gauge.builder(properties)
                .name("blockscope_jfr_event_lag_seconds")
                .help("Delay between the newest processed GC event and now, at its processing.")
                .unit(Unit.SECONDS)
                .withoutExemplars()
                .build();
        GcEventJoiner joiner = new GcEventJoiner(metrics);

        RecordingStream stream = new RecordingStream();
        try {
            stream.enable(GC).withoutThreshold();
            stream.enable(PHASE_PAUSE).withoutThreshold();
            stream.enable(HEAP_SUMMARY).withoutThreshold();
            stream.enable(ALLOCATION_SAMPLE)
                    .with("throttle", ALLOCATION_THROTTLE)
                    .withoutStackTrace();
            stream.enable(DATA_LOSS);
            // By name: the event class registers only when a caller first asks for a barrier.
            stream.enable(BARRIER).withoutStackTrace();
            stream.setMaxAge(MAX_AGE);
            stream.onEvent(GC, guarded(e -> {
                joiner.onCollection(e.getLong("gcId"), e.getString("name"), e.getString("cause"));
                lag.set(seconds(Duration.between(e.getEndTime(), Instant.now())));
            }));
            stream.onEvent(PHASE_PAUSE, guarded(e -> joiner.onPause(e.getLong("gcId"), seconds(e.getDuration()))));
            stream.onEvent(
                    HEAP_SUMMARY,
                    guarded(e -> joiner.onHeapSummary(
                            e.getLong("gcId"), "Before GC".equals(e.getString("when")), e.getLong("heapUsed"))));
            stream.onEvent(ALLOCATION_SAMPLE, guarded(e -> allocated.inc(e.getLong("weight"))));
            stream.onEvent(DATA_LOSS, guarded(e -> dataLoss.inc(e.getLong("amount"))));
            BarrierState barriers = new BarrierState();
            stream.onEvent(BARRIER, guarded(e -> barriers.reached(e.getLong("id"))));
            stream.onError(t -> Log.warnOnce("jfr-stream", "JFR event stream failed; GC metrics stop", t));

            Thread thread = startOnDaemonThread(stream);
            registry.register(allocated);
            registry.register(dataLoss);
            registry.register(lag);
            return new JfrGcCollector(stream, thread, barriers);
        } catch (Exception | Error e) {
            stream.close();
            throw e;
        }
    }

    /**
     * {@link RecordingStream#startAsync()} runs the stream on a non-daemon thread on JDK 17, which
     * would keep the host JVM alive after its main thread ends; so the blocking {@code start()} runs
     * on our own daemon thread, and a recorder listener says when the recording is running.
     */
    private static Thread startOnDaemonThread(RecordingStream stream) throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        FlightRecorderListener listener = new FlightRecorderListener() {
            @Override
            public void recordingStateChanged(Recording recording) {
                if (recording.getState() == RecordingState.RUNNING
                        && recording.getName().startsWith("Recording Stream")) {
                    running.countDown();
                }
            }
        };
        FlightRecorder.addListener(listener);
        Thread thread = new Thread(
                () -> {
                    try {
                        stream.start();
                    } catch (Throwable t) {
                        failure.set(t);
                        running.countDown();
                    }
                },
                "blockscope-jfr-gc");
        thread.setDaemon(true);
        try {
            thread.start();
            if (!running.await(START_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("JFR recording did not start within " + START_TIMEOUT_SECONDS + " s");
            }
        } finally {
            FlightRecorder.removeListener(listener);
        }
        Throwable t = failure.get();
        if (t instanceof Exception) {
            throw (Exception) t;
        }
        if (t != null) {
            throw new IllegalStateException("JFR stream failed to start", t);
        }
        return thread;
    }

    @Override
    public Thread thread() {
        return thread;
    }

    /** An exception in a handler must neither stop the stream nor go unnoticed. */
    private static Consumer<RecordedEvent> guarded(Consumer<RecordedEvent> handler) {
        return e -> {
            try {
                handler.accept(e);
            } catch (RuntimeException ex) {
                Log.warnOnce(
                        "jfr-handler-" + e.getEventType().getName(),
                        "could not read JFR event " + e.getEventType().getName() + "; such events are skipped",
                        ex);
            }
        };
    }

    private static double seconds(Duration d) {
        return d.getSeconds() + d.getNano() / 1e9;
    }

    /**
     * Commits a marker event and waits for the stream to deliver it. The stream is ordered, and a
     * pause that ended before this call was committed before the marker, so once the marker is
     * through, every such pause has been counted.
     */
    @Override
    public boolean awaitDelivered(long timeoutNanos) throws InterruptedException {
        long id = barriers.next();
        Marker marker = Marker.get();
        marker.commit(id);
        return barriers.await(id, timeoutNanos);
    }

    /**
     * The marker event of {@link #awaitDelivered}, made on first use by {@link EventFactory} and used
     * through reflection: code that names {@code jdk.jfr.Event} (a subclass, or a call on one) does
     * not compile under {@code --release}, because its superclass is internal to the JDK.
     */
    private static final class Marker {
        private static Marker instance;

        private final EventFactory factory;
        private final Method newEvent;
        private final Method set;
        private final Method commit;

        private Marker() throws ReflectiveOperationException {
            factory = EventFactory.create(
                    List.of(
                            new AnnotationElement(Name.class, BARRIER),
                            new AnnotationElement(Label.class, "blockscope GC barrier"),
                            new AnnotationElement(StackTrace.class, false)),
                    List.of(new ValueDescriptor(long.class, "id")));
            newEvent = EventFactory.class.getMethod("newEvent");
            Class<?> event = Class.forName("jdk.jfr.Event");
            set = event.getMethod("set", int.class, Object.class);
            commit = event.getMethod("commit");
        }

        static synchronized Marker get() {
            if (instance == null) {
                try {
                    instance = new Marker();
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot make the JFR marker event", e);
                }
            }
            return instance;
        }

        void commit(long id) {
            try {
                Object event = newEvent.invoke(factory);
                set.invoke(event, 0, id);
                commit.invoke(event);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot commit the JFR marker event", e);
            }
        }
    }

    /** The highest marker the stream delivered, and the callers waiting for theirs. */
    private static final class BarrierState {
        private long issued;
        private long reached;

        synchronized long next() {
            return ++issued;
        }

        synchronized void reached(long id) {
            if (id > reached) {
                reached = id;
                notifyAll();
            }
        }

        synchronized boolean await(long id, long timeoutNanos) throws InterruptedException {
            long deadline = System.nanoTime() + timeoutNanos;
            while (reached < id) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return true;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stream.close();
        thread.join(TimeUnit.SECONDS.toMillis(5));
    }
}
