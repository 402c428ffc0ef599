package io.blockscope.agent.it;

import java.net.URI;
import java.net.http.HttpClient;

/**
 * The shared {@link io.blockscope.testsupport.Scrape} under the name ProbeSwitchIT uses without an
 * import; the other tests here import the shared class. Goes when ProbeSwitchIT imports it.
 */
final class Scrape extends io.blockscope.testsupport.Scrape {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Scrape(String text) {
        super(text);
    }

    public static Scrape of(int port) {
        return new Scrape(fetch(URI.create("http://127.0.0.1:" + port + "/metrics"), HTTP, null));
    }
}
