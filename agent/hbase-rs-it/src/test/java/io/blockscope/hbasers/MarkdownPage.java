package io.blockscope.hbasers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A docs page read as a user reads it: its text and its fenced code blocks, in order, with the
 * names a user replaces by their own (the page's placeholders) replaced by a test's values.
 */
final class MarkdownPage {

    /** One fenced block: its info string ({@code bash}, {@code yaml}, ...), its text and where it starts. */
    record Block(String language, String text, int line) {
        String describe() {
            return "the " + language + " block at line " + line + ":\n" + text;
        }
    }

    private final Path file;
    private final String text;
    private final List<Block> blocks;

    private MarkdownPage(Path file, String text, List<Block> blocks) {
        this.file = file;
        this.text = text;
        this.blocks = blocks;
    }

    static MarkdownPage read(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            List<Block> blocks = new ArrayList<>();
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i].strip();
                if (!line.startsWith("```")) {
                    continue;
                }
                String language = line.substring(3).strip();
                int start = i + 1;
                StringBuilder body = new StringBuilder();
                for (i = start; i < lines.length && !lines[i].strip().equals("```"); i++) {
                    body.append(lines[i]).append('\n');
                }
                if (i == lines.length) {
                    throw new AssertionError(file + ": the block at line " + start + " is not closed");
                }
                blocks.add(new Block(language, body.toString(), start));
            }
            return new MarkdownPage(file, text, List.copyOf(blocks));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path file() {
        return file;
    }

    String text() {
        return text;
    }

    List<Block> blocks() {
        return blocks;
    }

    /**
     * {@code text} with every placeholder replaced, longest first, so that a placeholder inside a
     * longer one ({@code /etc/prometheus} in {@code /etc/prometheus/blockscope}) cannot split it.
     */
    static String substitute(String text, Map<String, String> placeholders) {
        Map<String, String> longestFirst = new LinkedHashMap<>();
        placeholders.entrySet().stream()
                .sorted(Comparator.comparingInt(
                                (Map.Entry<String, String> e) -> e.getKey().length())
                        .reversed())
                .forEach(e -> longestFirst.put(e.getKey(), e.getValue()));
        // One pass over the text, so a replacement is never replaced again.
        StringBuilder out = new StringBuilder();
        int i = 0;
        next:
        while (i < text.length()) {
            for (Map.Entry<String, String> e : longestFirst.entrySet()) {
                if (text.startsWith(e.getKey(), i)) {
                    out.append(e.getValue());
                    i += e.getKey().length();
                    continue next;
                }
            }
            out.append(text.charAt(i++));
        }
        return out.toString();
    }
}
