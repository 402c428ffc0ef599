package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.testsupport.Command;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboards bundle that {@code mvn package} builds: its .sha256 matches (sha256sum format), it holds
 * the rendered files, the Kubernetes manifests, the mixin, LICENSE and CHANGELOG, and the mixin inside
 * it renders exactly the files shipped next to it, and every link in its docs leads to a page or image it
 * holds (the bundle is all an operator needs).
 */
class DashboardsBundleIT {

    @Test
    void bundleHasItsChecksumTheRenderedFilesAndAWorkingMixin(@TempDir Path dir) throws Exception {
        String property = System.getProperty("blockscope.dashboards.bundle");
        assertTrue(property != null && !property.isBlank(), "run through Maven: blockscope.dashboards.bundle unset");
        Path bundle = Path.of(property);
        assertTrue(Files.isRegularFile(bundle), bundle + " was not built by mvn package");

        String[] sum = Files.readString(bundle.resolveSibling(bundle.getFileName() + ".sha256"))
                .trim()
                .split("\\s+\\*?");
        assertEquals(sha256(bundle), sum[0], "the .sha256 does not match the bundle");
        assertEquals(bundle.getFileName().toString(), sum[1], "the .sha256 names another file");

        run(dir, "tar", "-xzf", bundle.toString());
        String name = bundle.getFileName().toString().replace(".tar.gz", "");
        Path root = dir.resolve(name);
        Path module = ModulePaths.dashboards();
        for (String file : Mixin.renderedFiles(module)) {
            assertEquals(
                    Files.readString(module.resolve(file)),
                    Files.readString(root.resolve(file)),
                    file + " in the bundle differs from the module's");
        }
        for (String file : List.of(
                "LICENSE",
                "CHANGELOG.md",
                "mixin/mixin.libsonnet",
                "k8s/prometheusrule.yaml",
                "prometheus-3.yml",
                "docs/runbooks.md",
                "docs/dashboards.md")) {
            assertTrue(Files.isRegularFile(root.resolve(file)), file + " is not in the bundle");
        }
        assertEquals(List.of(), deadLinks(root.resolve("docs")), "links in the bundled docs to files it lacks");
        assertTrue(Files.readString(root.resolve("LICENSE")).contains("Apache License"));
        assertTrue(Files.isExecutable(root.resolve("render.sh")), "render.sh lost its mode");

        // The mixin in the bundle renders what the bundle ships.
        Path again = dir.resolve("again");
        run(
                dir,
                "bash",
                root.resolve("render.sh").toString(),
                "--config-override",
                Mixin.CHECKED_IN_CONFIG,
                "--out",
                again.toString());
        for (String file : Mixin.renderedFiles(again)) {
            assertEquals(
                    Files.readString(root.resolve(file)),
                    Files.readString(again.resolve(file)),
                    file + ": the bundle's mixin renders something else");
        }
    }

    /** Relative links of every page under {@code docs} whose target is not in the bundle. */
    private static List<String> deadLinks(Path docs) throws IOException {
        List<String> dead = new ArrayList<>();
        try (Stream<Path> pages = Files.list(docs)) {
            for (Path page :
                    pages.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                Matcher link = MARKDOWN_LINK.matcher(Files.readString(page));
                while (link.find()) {
                    String target = link.group(1);
                    if (!target.contains("://") && !Files.exists(page.resolveSibling(target))) {
                        dead.add(page.getFileName() + " -> " + target);
                    }
                }
            }
        }
        return dead;
    }

    /** A markdown link's target, without its anchor; in-page anchors ({@code (#...)}) do not match. */
    private static final Pattern MARKDOWN_LINK = Pattern.compile("\\]\\(([^)#\\s]+)(?:#[^)]*)?\\)");

    private static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    private static void run(Path dir, String... command) {
        Command.Result result = Command.run(List.of(command), dir, Duration.ofSeconds(60));
        assertEquals(0, result.exitCode(), String.join(" ", command) + ": " + result.output());
    }
}
