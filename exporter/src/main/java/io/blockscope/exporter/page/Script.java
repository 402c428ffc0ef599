package io.blockscope.exporter.page;

import java.nio.charset.StandardCharsets;

/**
 * The page's only script, served as its own resource so the page's Content-Security-Policy can
 * forbid inline scripts. It fetches the live part every 2 s and swaps it in; the server has
 * already escaped it, and HTML set through innerHTML never runs scripts.
 */
final class Script {

    static final byte[] BYTES = ("(function () {\n"
                    + "  'use strict';\n"
                    + "  var body = document.body;\n"
                    + "  var live = document.getElementById('live');\n"
                    + "  var status = document.getElementById('status');\n"
                    + "  var refreshes = 0;\n"
                    + "  // From the origin, not the document URL: a URL with user:password@ cannot be fetched.\n"
                    + "  var url = location.origin + location.pathname.replace(/[^/]*$/, '') + body.getAttribute('data-fragment');\n"
                    + "  function refresh() {\n"
                    + "    fetch(url, {cache: 'no-store', credentials: 'same-origin'})\n"
                    + "      .then(function (r) {\n"
                    + "        if (!r.ok) { throw new Error('HTTP ' + r.status); }\n"
                    + "        return r.text();\n"
                    + "      })\n"
                    + "      .then(function (html) {\n"
                    + "        live.innerHTML = html;\n"
                    + "        refreshes++;\n"
                    + "        body.setAttribute('data-refreshes', String(refreshes));\n"
                    + "        status.textContent = '';\n"
                    + "      })\n"
                    + "      .catch(function (e) {\n"
                    + "        status.textContent = 'refresh failed (' + e.message + '), retrying';\n"
                    + "      });\n"
                    + "  }\n"
                    + "  setInterval(refresh, 2000);\n"
                    + "})();\n")
            .getBytes(StandardCharsets.UTF_8);

    private Script() {}
}
