package io.blockscope.exporter.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hot-copy alert links a site to its finding as the live page does: the mixin imports the site map
 * {@value #MIXIN_FINDINGS} (site without its line, the finding's page and anchor), which is written here
 * from {@link Findings#all()}, the live page's own map read from the packaged findings pages, never typed.
 * The test fails when the committed map differs; {@code -Dblockscope.findings.update=true} rewrites it.
 */
class MixinFindingLinksTest {

    static final String MIXIN_FINDINGS = "dashboards/mixin/hbase-findings.json";

    @Test
    void theMixinsFindingMapIsTheLivePages() throws IOException {
        Path file = Path.of("..").resolve(MIXIN_FINDINGS);
        String expected = json(Findings.all());
        if (Boolean.getBoolean("blockscope.findings.update")) {
            Files.writeString(file, expected);
        }
        assertEquals(
                expected,
                Files.readString(file),
                MIXIN_FINDINGS + " differs from the findings pages' site map: mvn -o -pl exporter test"
                        + " -Dtest=MixinFindingLinksTest -Dblockscope.findings.update=true");
        assertTrue(
                Findings.all().size() >= 9,
                "the confirmed findings' sites: " + Findings.all().keySet());
    }

    @Test
    void everyFindingsSiteHasAdviceTheAlertCanCarryItOn() {
        // The alert matches its top site against the advice entries (hbase-copy-advice.json, the same as
        // CopyAdvice's), so a finding's site without advice would never be linked from the alert.
        List<String> withoutAdvice = new ArrayList<>();
        Findings.all().keySet().forEach(site -> {
            if (CopyAdvice.forSite(site) == null) {
                withoutAdvice.add(site);
            }
        });
        assertEquals(List.of(), withoutAdvice, "finding sites the advice does not name");
    }

    /** One entry a line, in the pages' order, like the advice file next to it. */
    static String json(Map<String, Findings.Link> sites) {
        List<String> lines = new ArrayList<>();
        sites.forEach((site, link) -> {
            int hash = link.href.indexOf('#');
            lines.add("  " + quote(site) + ": {\"page\": " + quote(link.href.substring(0, hash)) + ", \"anchor\": "
                    + quote(link.href.substring(hash + 1)) + "}");
        });
        return "{\n" + String.join(",\n", lines) + "\n}\n";
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
