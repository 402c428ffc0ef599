import io.blockscope.agenttest.host.FakeCache;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.matcher.ElementMatchers;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A host application with its own ByteBuddy, Jetty and Prometheus client (other versions than the
 * agent's). Compiled by ShadingIT at test time against those jars. Uses all three, reports the
 * versions it saw, then waits for a line on stdin.
 */
public class ShadingHost {

    public static void main(String[] args) throws Exception {
        String generated = new ByteBuddy().subclass(Object.class)
                .method(ElementMatchers.named("toString")).intercept(FixedValue.value("generated"))
                .make().load(ShadingHost.class.getClassLoader()).getLoaded()
                .getDeclaredConstructor().newInstance().toString();

        Server server = new Server(new InetSocketAddress("127.0.0.1", 0));
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                Content.Sink.write(response, true, "jetty-ok", callback);
                return true;
            }
        });
        server.start();
        int port = ((ServerConnector) server.getConnectors()[0]).getLocalPort();
        HttpURLConnection connection = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/").openConnection();
        String body = new String(connection.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        server.stop();

        PrometheusRegistry registry = new PrometheusRegistry();
        Counter counter = Counter.builder().name("host_requests_total").help("requests").register(registry);
        counter.inc();
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        new PrometheusTextFormatWriter(false).write(text, registry.scrape());
        boolean scraped = text.toString(StandardCharsets.UTF_8).contains("host_requests_total 1.0");

        FakeCache cache = new FakeCache();
        for (long i = 0; i < 10; i++) {
            Object block = cache.getBlock(i);
            if (block != null) {
                cache.returnBlock(i, block);
            }
        }

        System.out.println("host ok bytebuddy=" + generated + "/" + jar(ByteBuddy.class)
                + " jetty=" + body + "/" + Server.getVersion() + " prometheus=" + scraped + "/" + jar(Counter.class)
                + " port=" + io.blockscope.agenttest.host.AgentState.port());
        System.in.read();
    }

    /** The file name of the jar a class came from: shows whose copy the host got. */
    private static String jar(Class<?> type) {
        String path = type.getProtectionDomain().getCodeSource().getLocation().getPath();
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
