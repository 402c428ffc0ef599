package io.blockscope.dashboards;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Heading anchors of a Markdown document, as GitHub makes them (lower case, punctuation dropped). */
final class MarkdownAnchors {

    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.+?)\\s*$", Pattern.MULTILINE);

    private MarkdownAnchors() {}

    static Set<String> of(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Matcher m = HEADING.matcher(markdown);
        while (m.find()) {
            anchors.add(slug(m.group(2)));
        }
        return anchors;
    }

    static String slug(String heading) {
        return heading.toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9 _-]", "")
                .trim()
                .replace(' ', '-');
    }

    /** The text from the heading with this anchor up to the next heading of the same or a higher level. */
    static String section(String markdown, String anchor) {
        Matcher m = HEADING.matcher(markdown);
        while (m.find()) {
            if (slug(m.group(2)).equals(anchor)) {
                int level = m.group(1).length();
                int end = markdown.length();
                Matcher next = HEADING.matcher(markdown);
                if (next.find(m.end())) {
                    do {
                        if (next.group(1).length() <= level) {
                            end = next.start();
                            break;
                        }
                    } while (next.find());
                }
                return markdown.substring(m.start(), end);
            }
        }
        throw new IllegalArgumentException("no section #" + anchor);
    }
}
