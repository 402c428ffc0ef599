package io.blockscope.exporter.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class HtmlTest {

    @Test
    void escapesEveryCharacterThatCanOpenMarkupOrLeaveAnAttribute() {
        assertEquals(
                "&lt;script&gt;alert(&quot;x&quot;&amp;&#39;y&#39;)&lt;/script&gt;",
                Html.escape("<script>alert(\"x\"&'y')</script>"));
        assertEquals("a\uFFFDb\tc\n", Html.escape("a\u0000b\tc\n"));
        assertEquals("", Html.escape(null));
    }

    @Test
    void leavesPlainTextAlone() {
        String site = "io.blockscope.server.demo.CopyingValueFilter.filterCell:42";
        assertSame(site, Html.escape(site));
    }
}
