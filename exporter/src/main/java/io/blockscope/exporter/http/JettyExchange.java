package io.blockscope.exporter.http;

import io.prometheus.metrics.exporter.common.PrometheusHttpExchange;
import io.prometheus.metrics.exporter.common.PrometheusHttpRequest;
import io.prometheus.metrics.exporter.common.PrometheusHttpResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Enumeration;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * Presents one Jetty core request/response pair to client_java's {@code PrometheusScrapeHandler},
 * which does content negotiation, {@code name[]} filtering and gzip. Lighter than the servlet
 * exporter: no servlet API and no ee10 container in the agent jar.
 */
final class JettyExchange implements PrometheusHttpExchange {

  private final Request request;
  private final Response response;
  private OutputStream body;
  private Exception failure;

  JettyExchange(Request request, Response response) {
    this.request = request;
    this.response = response;
  }

  @Override
  public PrometheusHttpRequest getRequest() {
    return new PrometheusHttpRequest() {
      @Override
      public String getQueryString() {
        return request.getHttpURI().getQuery();
      }

      @Override
      public Enumeration<String> getHeaders(String name) {
        return request.getHeaders().getValues(name);
      }

      @Override
      public String getMethod() {
        return request.getMethod();
      }

      @Override
      public String getRequestPath() {
        return Request.getPathInContext(request);
      }
    };
  }

  @Override
  public PrometheusHttpResponse getResponse() {
    return new PrometheusHttpResponse() {
      @Override
      public void setHeader(String name, String value) {
        response.getHeaders().put(name, value);
      }

      /** Content length as client_java means it: > 0 known, 0 unknown (chunked), -1 no body. */
      @Override
      public OutputStream sendHeadersAndGetBody(int statusCode, int contentLength) {
        response.setStatus(statusCode);
        if (contentLength > 0) {
          response.getHeaders().put(HttpHeader.CONTENT_LENGTH, contentLength);
        }
        // Buffered: the gzip path writes in 512-byte pieces, each of which would be a socket write.
        body = Response.asBufferedOutputStream(request, response);
        return body;
      }
    };
  }

  @Override
  public void handleException(IOException e) {
    failure = e;
  }

  @Override
  public void handleException(RuntimeException e) {
    failure = e;
  }

  /** Completes the response body (a no-op if the handler already closed it). */
  @Override
  public void close() {
    if (body != null) {
      try {
        body.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        }
      }
    }
  }

  /** Whether the handler wrote a response at all. */
  boolean responded() {
    return body != null;
  }

  /** What went wrong while scraping or writing, or null. */
  Exception failure() {
    return failure;
  }
}
